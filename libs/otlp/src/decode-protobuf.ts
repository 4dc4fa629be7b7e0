import { OtlpMessages } from './otlp-schema.js';
import { OtlpRequestError } from './otlp-request.error.js';
import { scanProtobuf } from './scan-protobuf.js';
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
  resourceSpans: Array<{ resource?: { attributes: PbKeyValue[] } | null; scopeSpans: Array<{ spans: PbSpan[] }> }>;
}

const unsigned = (n: Long): bigint => (BigInt(n.high >>> 0) << 32n) | BigInt(n.low >>> 0);
const signed = (n: Long): bigint => BigInt.asIntN(64, unsigned(n));

/** Messages may nest this deep: a span's attribute values hold about 19 levels of arrays and kvlists. */
export const MAX_NESTING = 64;

/**
 * Decodes an ExportTraceServiceRequest in binary protobuf. The wire format is scanned first (scan-protobuf.ts), so
 * that nothing is built for a request that breaks a limit or cannot be read.
 */
export function decodeProtobufTraces(body: Buffer, limits: DecodeLimits): OtlpSpan[] {
  scanProtobuf(body, OtlpMessages.request, { maxValues: limits.maxValues, maxDepth: MAX_NESTING });
  const request = decodeWith(() => OtlpMessages.request.decode(body) as unknown as PbRequest);
  const count = request.resourceSpans.reduce((sum, r) => sum + r.scopeSpans.reduce((n, s) => n + s.spans.length, 0), 0);
  if (count > limits.maxSpans) throw tooManySpans(count, limits.maxSpans);
  return request.resourceSpans.flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes ?? []);
    return resourceSpans.scopeSpans.flatMap((scope) => scope.spans.map((span) => toSpan(span, resource)));
  });
}

export const tooManySpans = (count: number, max: number): OtlpRequestError =>
  new OtlpRequestError('OTLP_TOO_MANY_SPANS', `the request holds ${count} spans, more than OTLP_MAX_SPANS_PER_REQUEST (${max}): export smaller batches`);

/** protobufjs's own errors, which the scan should leave none of, as a 400 rather than a 500. */
function decodeWith<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    throw new OtlpRequestError('OTLP_UNDECODABLE', `the body is not an ExportTraceServiceRequest in binary protobuf: ${(error as Error).message}`);
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
