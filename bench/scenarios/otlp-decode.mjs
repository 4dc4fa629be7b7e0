import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

const { decodeJsonTraces, decodeProtobufTraces, OtlpRequestError } = await import('../../dist/libs/otlp/src/index.js');

/** Decodes of each body per run (BENCH_OTLP_DECODES); the limits are the gateway's defaults. */
const DECODES = Number(process.env.BENCH_OTLP_DECODES ?? 200);
const LIMITS = { maxSpans: 1_000, maxValues: 500_000 };
const SPANS = 512;
const ATTRIBUTES = 20;
const TARGETS = { hostileMs: 1_000 };
const size = (bytes) => (bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);

export const title = `Decoding OTLP exports in one process: ${SPANS} spans × ${ATTRIBUTES} attributes, protobuf and JSON, and hostile bodies refused (CPU)`;

// The messages as an exporter writes them (opentelemetry-proto's field numbers).
const Request = protobuf
  .parse(
    `syntax = "proto3";
message Request { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { repeated ScopeSpans scope_spans = 2; }
message ScopeSpans { repeated Span spans = 2; }
message Span { bytes trace_id = 1; bytes span_id = 2; string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; int64 int_value = 3; } }`,
  )
  .root.lookupType('Request');

/** About 1 MB: spans as an instrumented agent records them, each attribute about 90 bytes of text. */
function exportOf() {
  const spans = Array.from({ length: SPANS }, (_, i) => ({
    traceId: Buffer.alloc(16, (i % 250) + 1),
    spanId: Buffer.from((i + 1).toString(16).padStart(16, '0'), 'hex'),
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: '1795863600000000000',
    endTimeUnixNano: '1795863600733000000',
    attributes: Array.from({ length: ATTRIBUTES }, (_, k) => ({
      key: `app.attribute_${k}`,
      value: { stringValue: `${'momentum, funding and volume '.repeat(3)}${i}` },
    })),
  }));
  const object = { resourceSpans: [{ scopeSpans: [{ spans }] }] };
  const proto = Buffer.from(Request.encode(Request.fromObject(object)).finish());
  const json = Buffer.from(
    JSON.stringify(Request.toObject(Request.decode(proto), { longs: String, bytes: String }), (key, value) =>
      (key === 'traceId' || key === 'spanId') && typeof value === 'string' ? Buffer.from(value, 'base64').toString('hex') : value,
    ),
  );
  return { proto, json };
}

/** CPU ms of `fn`, run `times` times, per run. */
function cpuPerRun(fn, times) {
  const before = process.cpuUsage();
  for (let i = 0; i < times; i++) fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / times;
}

/** CPU ms until `fn` throws an OtlpRequestError, and its code. */
function refusal(fn) {
  const before = process.cpuUsage();
  try {
    fn();
  } catch (error) {
    const used = process.cpuUsage(before);
    if (!(error instanceof OtlpRequestError)) throw error;
    return { ms: (used.user + used.system) / 1000, code: error.code };
  }
  throw new Error('a hostile body was decoded');
}

export async function run() {
  const { proto, json } = exportOf();
  const decodeProto = () => decodeProtobufTraces(proto, LIMITS);
  const decodeJson = () => decodeJsonTraces(json, LIMITS);
  if (decodeProto().length !== SPANS || decodeJson().length !== SPANS) throw new Error('the export did not decode to its spans');
  cpuPerRun(decodeProto, 20); // warm-up
  cpuPerRun(decodeJson, 20);
  const protoMs = cpuPerRun(decodeProto, DECODES);
  const jsonMs = cpuPerRun(decodeJson, DECODES);
  // What an exporter could send to hurt: 8 million empty ResourceSpans (16 MB, from 16 KB of gzip on the wire), the
  // same in JSON, and values nested 100,000 deep.
  const hostile = [
    { what: 'protobuf, 8 million empty values', body: Buffer.alloc(16_000_000, Buffer.from([0x0a, 0x00])), decode: decodeProtobufTraces },
    { what: 'JSON, 5 million empty values', body: Buffer.from(`{"resourceSpans":[${'{},'.repeat(5_000_000)}{}]}`), decode: decodeJsonTraces },
    {
      what: 'JSON, values nested 100,000 deep',
      body: Buffer.from(
        `{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"k","value":${'{"arrayValue":{"values":['.repeat(100_000)}{}${']}}'.repeat(100_000)}}]}]}]}]}`,
      ),
      decode: decodeJsonTraces,
    },
  ].map((h) => ({ ...h, ...refusal(() => h.decode(h.body, LIMITS)) }));
  const worstMs = Math.max(...hostile.map((h) => h.ms));
  const megabytes = proto.length / 1_048_576;
  return {
    throughput: megabytes / (protoMs / 1000),
    unit: 'MB/s of protobuf',
    targets: [{ text: `every hostile body refused within ${TARGETS.hostileMs} ms of CPU`, pass: worstMs <= TARGETS.hostileMs }],
    details: [
      `protobuf: ${size(proto.length)} decoded in ${protoMs.toFixed(1)} ms of CPU (mean of ${DECODES})`,
      `JSON: ${size(json.length)} decoded in ${jsonMs.toFixed(1)} ms of CPU (mean of ${DECODES})`,
      ...hostile.map((h) => `${h.what}: ${size(h.body.length)} (${size(gzipSync(h.body).length)} gzipped) refused ${h.code} in ${h.ms.toFixed(0)} ms of CPU`),
    ],
  };
}
