/**
 * An attribute's value as OTLP's AnyValue holds it: int64 as bigint (never a JS number), bytes as bytes, a kvlist as
 * a Map (keys such as `__proto__` are data, not an object's prototype).
 */
export type AttributeValue = string | boolean | bigint | number | Uint8Array | AttributeValue[] | Attributes | null;
export type Attributes = Map<string, AttributeValue>;

export interface OtlpSpanEvent {
  name: string;
  timeUnixNano: bigint;
  attributes: Attributes;
}

/** One span as the gateway reads it, from either encoding. Ids are lowercase hex ('' when absent). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Attributes;
  events: OtlpSpanEvent[];
  /** Status.code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
  /** The attributes of the resource the span came from (service.name, ...), shared by its siblings. */
  resource: Attributes;
}

/** The limits a decoder checks before it builds the spans. */
export interface DecodeLimits {
  maxSpans: number;
  /** Values of any kind in the whole request (fields on the wire; JSON's objects, arrays and their members). */
  maxValues: number;
}
