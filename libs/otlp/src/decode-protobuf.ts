import { isUtf8 } from 'node:buffer';
import protobuf from 'protobufjs';
import { OtlpMessages } from './otlp-schema.js';
import { OtlpRequestError } from './otlp-request.error.js';
import type { AttributeValue, Attributes, DecodeLimits, OtlpSpan, OtlpSpanEvent } from './otlp-span.js';

/** A Long as protobufjs gives int64 and fixed64 fields. */
interface Long {
  low: number;
  high: number;
}
interface PbKeyValue {
  key: string;
  value?: PbAnyValue | null;
}
interface PbAnyValue {
  value?: string;
  stringValue?: string;
  boolValue?: boolean;
  intValue?: Long;
  doubleValue?: number;
  arrayValue?: { values: PbAnyValue[] } | null;
  kvlistValue?: { values: PbKeyValue[] } | null;
  bytesValue?: Uint8Array;
}
interface PbSpan {
  traceId: Buffer;
  spanId: Buffer;
  parentSpanId: Buffer;
  name: string;
  kind: number;
  startTimeUnixNano: Long;
  endTimeUnixNano: Long;
  attributes: PbKeyValue[];
  events: Array<{ timeUnixNano: Long; name: string; attributes: PbKeyValue[] }>;
  status?: { code: number; message: string } | null;
}
interface PbRequest {
  resourceSpans: Array<{ resource?: { attributes: PbKeyValue[] } | null; scopeSpans: Array<{ spans: Uint8Array[] }> }>;
}

/**
 * protobufjs reads a string field with Buffer's lenient decoding, which turns bytes that are not UTF-8 into U+FFFD;
 * proto3 requires UTF-8, and a prompt silently altered would be recorded as what the agent sent. This reader refuses.
 */
class StrictUtf8Reader extends protobuf.BufferReader {
  override string(): string {
    const bytes = this.bytes();
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!isUtf8(buffer)) throw new OtlpRequestError('OTLP_UNDECODABLE', 'a string field is not valid UTF-8, which proto3 requires');
    return buffer.toString('utf8');
  }
}

const unsigned = (n: Long): bigint => (BigInt(n.high >>> 0) << 32n) | BigInt(n.low >>> 0);
const signed = (n: Long): bigint => BigInt.asIntN(64, unsigned(n));

/** Decodes an ExportTraceServiceRequest in binary protobuf; counts the spans before it decodes any. */
export function decodeProtobufTraces(body: Buffer, limits: DecodeLimits): OtlpSpan[] {
  const request = decodeWith(() => OtlpMessages.request.decode(new StrictUtf8Reader(body)) as unknown as PbRequest);
  const count = request.resourceSpans.reduce((sum, r) => sum + r.scopeSpans.reduce((n, s) => n + s.spans.length, 0), 0);
  if (count > limits.maxSpans) throw tooManySpans(count, limits.maxSpans);
  const spans: OtlpSpan[] = [];
  for (const resourceSpans of request.resourceSpans) {
    const resource = attributesOf(resourceSpans.resource?.attributes ?? []);
    for (const scope of resourceSpans.scopeSpans) {
      for (const bytes of scope.spans) {
        const span = decodeWith(
          () => OtlpMessages.span.decode(new StrictUtf8Reader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) as unknown as PbSpan,
        );
        spans.push(toSpan(span, resource));
      }
    }
  }
  return spans;
}

export const tooManySpans = (count: number, max: number): OtlpRequestError =>
  new OtlpRequestError('OTLP_TOO_MANY_SPANS', `the request holds ${count} spans, more than OTLP_MAX_SPANS_PER_REQUEST (${max}): export smaller batches`);

function decodeWith<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof OtlpRequestError) throw error;
    // protobufjs throws RangeError for a truncated message and Error for a wrong wire type; a stack overflow is nesting.
    const why = /call stack/i.test(String((error as Error).message)) ? 'its values nest too deeply' : (error as Error).message;
    throw new OtlpRequestError('OTLP_UNDECODABLE', `the body is not an ExportTraceServiceRequest in binary protobuf: ${why}`);
  }
}

function toSpan(span: PbSpan, resource: Attributes): OtlpSpan {
  return {
    traceId: span.traceId.toString('hex'),
    spanId: span.spanId.toString('hex'),
    parentSpanId: span.parentSpanId.toString('hex'),
    name: span.name,
    kind: span.kind,
    startTimeUnixNano: unsigned(span.startTimeUnixNano),
    endTimeUnixNano: unsigned(span.endTimeUnixNano),
    attributes: attributesOf(span.attributes),
    events: span.events.map((event): OtlpSpanEvent => ({
      name: event.name,
      timeUnixNano: unsigned(event.timeUnixNano),
      attributes: attributesOf(event.attributes),
    })),
    statusCode: span.status?.code ?? 0,
    statusMessage: span.status?.message ?? '',
    resource,
  };
}

/** Later keys win, as in every OTLP consumer: the spec says keys MUST be unique, and a repeat is the sender's bug. */
function attributesOf(list: PbKeyValue[]): Attributes {
  const attributes: Attributes = new Map();
  for (const { key, value } of list) attributes.set(key, valueOf(value));
  return attributes;
}

function valueOf(value: PbAnyValue | null | undefined): AttributeValue {
  switch (value?.value) {
    case 'stringValue':
      return value.stringValue!;
    case 'boolValue':
      return value.boolValue!;
    case 'intValue':
      return signed(value.intValue!);
    case 'doubleValue':
      return value.doubleValue!;
    case 'arrayValue':
      return (value.arrayValue?.values ?? []).map(valueOf);
    case 'kvlistValue':
      return attributesOf(value.kvlistValue?.values ?? []);
    case 'bytesValue':
      return value.bytesValue!;
    default:
      return null;
  }
}
