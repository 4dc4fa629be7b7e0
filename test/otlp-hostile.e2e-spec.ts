import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createGzip, gzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { gatewaySuite } from './support/gateway-suite.js';

// What an exporter, or anyone holding an agent key, may send to /otlp/v1/traces that is not a good export: each is a
// 4xx whose Status names the rule (or a span refused alone, in partial_success), and the API keeps answering.
const KEY = 'agent-key-for-otlp-hostile-tests';
const MAX_SPANS = 50;
const ATTRIBUTE_LIMIT = 4_096;
const MAX_VALUES = 500_000; // the default
const ADMIN = 'admin-token-for-otlp-hostile-tests';
const UINT64_MAX = '18446744073709551615';
const INT64_MAX = '9223372036854775807';

// The official messages, as any OTLP sender writes them (field numbers of opentelemetry-proto), to build bad ones.
const root = protobuf.parse(`
syntax = "proto3";
message Request { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { repeated ScopeSpans scope_spans = 2; }
message ScopeSpans { repeated Span spans = 2; }
message Span { bytes trace_id = 1; bytes span_id = 2; string name = 5; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; int64 int_value = 3; } }
message Status { int32 code = 1; string message = 2; }
message Response { Partial partial_success = 1; }
message Partial { int64 rejected_spans = 1; string error_message = 2; }
`).root;
const Request = root.lookupType('Request');
const Status = root.lookupType('Status');

let next = 1;
/** A chat span in OTLP JSON with fresh ids. */
function jsonSpan(extra: Array<{ key: string; value: unknown }> = [], times = { start: '1795863600000000000', end: '1795863600733000000' }) {
  const n = next++;
  return {
    traceId: n.toString(16).padStart(32, '0'),
    spanId: n.toString(16).padStart(16, 'a'),
    name: 'chat gpt-4o-mini',
    startTimeUnixNano: times.start,
    endTimeUnixNano: times.end,
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
      { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
      ...extra,
    ],
  };
}
const jsonExport = (spans: unknown[]) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
function protoSpan(name: string) {
  const n = next++;
  return {
    traceId: Buffer.from(n.toString(16).padStart(32, '0'), 'hex'),
    spanId: Buffer.from(n.toString(16).padStart(16, 'b'), 'hex'),
    name,
    startTimeUnixNano: '1795863600000000000',
    endTimeUnixNano: '1795863600100000000',
    attributes: [{ key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } }],
  };
}
const protoExport = (spans: unknown[]) => Buffer.from(Request.encode(Request.fromObject({ resourceSpans: [{ scopeSpans: [{ spans }] }] })).finish());

describe('OTLP/HTTP receiver: hostile and broken exports', () => {
  const suite = gatewaySuite(
    {
      AGENT_API_KEY: KEY,
      ADMIN_TOKEN: ADMIN,
      OTLP_MAX_SPANS_PER_REQUEST: String(MAX_SPANS),
      OTLP_ATTRIBUTE_VALUE_LIMIT_BYTES: String(ATTRIBUTE_LIMIT),
      OTLP_BODY_LIMIT_BYTES: '1048576',
    },
    { worker: false },
  );
  const post = async (body: Buffer | string, headers: Record<string, string>) => {
    const res = await fetch(`${suite.harness.apiUrl}/otlp/v1/traces`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, ...headers }, body });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      retryAfter: res.headers.get('retry-after'),
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  };
  const postJson = async (body: Buffer | string, headers: Record<string, string> = {}) => {
    const answer = await post(body, { 'content-type': 'application/json', ...headers });
    return { ...answer, json: JSON.parse(answer.bytes.toString()) };
  };
  const postProto = async (body: Buffer, headers: Record<string, string> = {}) => post(body, { 'content-type': 'application/x-protobuf', ...headers });
  const status = (bytes: Buffer) => Status.toObject(Status.decode(bytes)) as { code?: number; message: string };
  const stored = async (spanId: string) => (await suite.db.query('SELECT * FROM model_calls WHERE span_id = $1', [spanId])).rows[0];

  afterEach(async () => {
    // Whatever came before, the API still answers a good export.
    const span = jsonSpan();
    expect(await postJson(jsonExport([span]))).toMatchObject({ status: 200, json: {} });
  });

  it('refuses a truncated protobuf body with 400, in protobuf', async () => {
    const whole = protoExport([protoSpan('chat'), protoSpan('chat')]);
    const answer = await postProto(whole.subarray(0, whole.length - 7));
    expect([answer.status, answer.type]).toEqual([400, 'application/x-protobuf']);
    expect(status(answer.bytes)).toEqual({
      code: 3,
      message:
        'OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in binary protobuf: resourceSpans[0] runs past the end of the message that holds it (the body is cut short or a length is wrong)',
    });
  });

  it('refuses a content type it does not read (415), and a Content-Encoding other than gzip', async () => {
    const text = await post(jsonExport([jsonSpan()]), { 'content-type': 'text/plain' });
    expect([text.status, JSON.parse(text.bytes.toString()).message]).toEqual([
      415,
      'UNSUPPORTED_MEDIA_TYPE: Content-Type must be application/x-protobuf or application/json',
    ]);
    const brotli = await postJson(jsonExport([jsonSpan()]), { 'content-encoding': 'br' });
    expect([brotli.status, brotli.json.message]).toEqual([415, 'OTLP_UNSUPPORTED_ENCODING: Content-Encoding must be gzip or none, not "br"']);
    // Other routes take no protobuf.
    const elsewhere = await fetch(`${suite.harness.apiUrl}/v1/ai-logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-protobuf' },
      body: Buffer.from([1]),
    });
    expect(elsewhere.status).toBe(415);
    // JSON is UTF-8: another charset is refused by name, here and on every route, rather than read as UTF-8.
    const latin1 = await post(jsonExport([jsonSpan()]), { 'content-type': 'application/json; charset=latin1' });
    expect([latin1.status, JSON.parse(latin1.bytes.toString()).message]).toEqual([
      415,
      'UNSUPPORTED_CHARSET: Content-Type\'s charset must be utf-8, not "latin1": JSON is UTF-8 (RFC 8259)',
    ]);
    expect((await post(jsonExport([jsonSpan()]), { 'content-type': 'application/json; charset="UTF-8"' })).status).toBe(200);
    const log = await fetch(`${suite.harness.apiUrl}/v1/ai-logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json; charset=iso-8859-1' },
      body: '{}',
    });
    expect([log.status, await log.json()]).toMatchObject([415, { code: 'UNSUPPORTED_CHARSET', message: expect.stringContaining('"iso-8859-1"') }]);
  });

  it('answers a path or method under /otlp that it does not take with 404 or 405, as Status, before reading the body', async () => {
    const to = (path: string, method: string, headers: Record<string, string>) =>
      fetch(`${suite.harness.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${KEY}`, ...headers },
        body: method === 'GET' ? undefined : Buffer.from([1]),
      });
    const logs = await to('/otlp/v1/logs', 'POST', { 'content-type': 'application/x-protobuf' });
    expect([logs.status, logs.headers.get('content-type'), status(Buffer.from(await logs.arrayBuffer()))]).toEqual([
      404,
      'application/x-protobuf',
      { code: 5, message: 'NOT_FOUND: no OTLP receiver at /otlp/v1/logs: only traces are taken, at /otlp/v1/traces' },
    ]);
    const put = await to('/otlp/v1/traces', 'PUT', { 'content-type': 'application/json' });
    expect([put.status, put.headers.get('allow'), await put.json()]).toEqual([
      405,
      'POST',
      { code: 12, message: 'METHOD_NOT_ALLOWED: /otlp/v1/traces takes POST, not PUT' },
    ]);
    expect((await to('/otlp/v1/traces', 'GET', {})).status).toBe(405);
  });

  it('names the header or query value it refuses in the Status', async () => {
    const { hostname, port } = new URL(suite.harness.apiUrl);
    const raw = (path: string, headers: Record<string, string | string[]>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ hostname, port, path, method: 'POST', headers: { authorization: `Bearer ${KEY}`, ...headers } }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject).end('{}');
      });
    expect(await raw('/otlp/v1/traces', { 'content-type': ['application/json', 'application/json'] })).toEqual({
      status: 400,
      body: JSON.stringify({ code: 3, message: 'VALIDATION_FAILED: the content-type header must be sent once' }),
    });
    expect(await raw('/otlp/v1/traces?x=%00', { 'content-type': 'application/json' })).toEqual({
      status: 400,
      body: JSON.stringify({ code: 3, message: 'VALIDATION_FAILED: x must be text PostgreSQL can store: it contains the character U+0000' }),
    });
  });

  it('stops inflating a gzip bomb at OTLP_DECOMPRESSED_LIMIT_BYTES: 413', async () => {
    // 256 MiB of zeros, gzipped to about 256 KB, made a MiB at a time.
    const zeros = Buffer.alloc(1 << 20);
    const bomb = await buffer(
      Readable.from(
        (function* () {
          for (let i = 0; i < 256; i++) yield zeros;
        })(),
      ).pipe(createGzip({ level: 9 })),
    );
    expect(bomb.length).toBeLessThan(1 << 20);
    const answer = await postProto(bomb, { 'content-encoding': 'gzip' });
    expect([answer.status, status(answer.bytes).message]).toEqual([
      413,
      'OTLP_BODY_TOO_LARGE: the body inflates to more than OTLP_DECOMPRESSED_LIMIT_BYTES (16777216 bytes): export smaller batches',
    ]);
    const notGzip = await postJson('{"resourceSpans":[]}', { 'content-encoding': 'gzip' });
    expect([notGzip.status, notGzip.json.message]).toEqual([400, expect.stringMatching(/^OTLP_UNDECODABLE: the body is not valid gzip/)]);
    expect((await postJson(gzipSync(jsonExport([jsonSpan()])), { 'content-encoding': 'gzip' })).status).toBe(200);
  });

  it('refuses millions of empty values, from a few KB of gzip, before building them (protobuf and JSON)', async () => {
    // 16 MB of empty ResourceSpans (8 million in protobuf, 5 million in JSON): objects that took the API down.
    const proto = gzipSync(Buffer.alloc(16_000_000, Buffer.from([0x0a, 0x00])), { level: 9 });
    const json = gzipSync(`{"resourceSpans":[${'{},'.repeat(5_000_000)}{}]}`, { level: 9 });
    expect([proto.length, json.length].every((n) => n < 40_000)).toBe(true);
    const message = `OTLP_TOO_MANY_VALUES: the request holds more than OTLP_MAX_VALUES_PER_REQUEST (${MAX_VALUES}) values (spans, attributes, events and the fields that make them up): export smaller batches`;
    const answers = await Promise.all([postProto(proto, { 'content-encoding': 'gzip' }), postJson(json, { 'content-encoding': 'gzip' })]);
    expect([answers[0].status, status(answers[0].bytes).message, answers[1].status, answers[1].json.message]).toEqual([400, message, 400, message]);
  });

  it('refuses a body over OTLP_BODY_LIMIT_BYTES with 413, and a large one without a key before reading it', async () => {
    const big = Buffer.alloc(1_048_577, 0x20);
    const answer = await postJson(big);
    expect([answer.status, answer.json.message]).toEqual([
      413,
      'OTLP_BODY_TOO_LARGE: the body is larger than OTLP_BODY_LIMIT_BYTES (1048576 bytes): export smaller batches',
    ]);
    const res = await fetch(`${suite.harness.apiUrl}/otlp/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(500_000, 0x20),
    });
    expect([res.status, await res.json()]).toEqual([401, { code: 16, message: 'UNAUTHORIZED: Authorization header must be "Bearer <agent key>"' }]);
  });

  it('keeps 64-bit ids and timestamps exact at their maxima, as JSON strings, JSON numbers and protobuf fixed64', async () => {
    const strings = jsonSpan(
      [
        { key: 'weex.order_id', value: { intValue: INT64_MAX } },
        { key: 'gen_ai.usage.input_tokens', value: { intValue: INT64_MAX } },
      ],
      { start: '1795863600000000000', end: '1795863600000000001' },
    );
    const numbers = jsonSpan([{ key: 'weex.order_id', value: { intValue: '737185556881998184' } }], {
      start: '1795863600000000123',
      end: '1795863600999999999',
    });
    // The same values as bare JSON numbers, which JSON.parse would round: read losslessly.
    const text = jsonExport([strings, numbers]).replace('"1795863600000000123"', '1795863600000000123').replace('"737185556881998184"', '737185556881998184');
    expect(text).toContain('"startTimeUnixNano":1795863600000000123');
    expect(text).toContain('{"intValue":737185556881998184}');
    expect(await postJson(text)).toMatchObject({ status: 200, json: {} });
    expect(await stored(strings.spanId)).toMatchObject({
      weex_order_id: INT64_MAX,
      prompt_tokens: null,
      started_at: new Date('2026-11-28T11:00:00.000Z'),
    });
    expect(await stored(numbers.spanId)).toMatchObject({
      weex_order_id: '737185556881998184',
      started_at: new Date('2026-11-28T11:00:00.000Z'),
      finished_at: new Date('2026-11-28T11:00:00.999Z'),
    });
    // Read exactly, but a call cannot end in the year 2554: refused alone, with its rule.
    const max = jsonSpan([], { start: UINT64_MAX, end: UINT64_MAX });
    const future = await postJson(jsonExport([max]));
    expect([future.status, future.json.partialSuccess?.rejectedSpans]).toEqual([200, '1']);
    expect(future.json.partialSuccess?.errorMessage).toContain("its endTimeUnixNano is more than an hour after the gateway's clock");
    expect(await stored(max.spanId)).toBeUndefined();
    // Beyond 64 bits, or not an integer: 400 naming the field.
    const over = await postJson(jsonExport([jsonSpan([], { start: '18446744073709551616', end: UINT64_MAX })]));
    expect([over.status, over.json.message]).toEqual([
      400,
      'OTLP_UNDECODABLE: resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano must be an unsigned 64-bit integer (a decimal string or number)',
    ]);
  });

  it('refuses a model-call span with an attribute over OTLP_ATTRIBUTE_VALUE_LIMIT_BYTES alone, in partial_success', async () => {
    const huge = jsonSpan([{ key: 'gen_ai.input.messages', value: { stringValue: 'x'.repeat(ATTRIBUTE_LIMIT + 1) } }]);
    const fine = jsonSpan();
    const answer = await postJson(jsonExport([huge, fine]));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      partialSuccess: {
        rejectedSpans: '1',
        errorMessage: `1 spans refused: span ${huge.spanId} of trace ${huge.traceId}: attribute gen_ai.input.messages holds 4097 bytes or more, more than OTLP_ATTRIBUTE_VALUE_LIMIT_BYTES (4096)`,
      },
    });
    expect([await stored(huge.spanId), (await stored(fine.spanId))?.outcome]).toEqual([undefined, 'answered']);
  });

  it('refuses more than OTLP_MAX_SPANS_PER_REQUEST spans with 400, recording none', async () => {
    const spans = Array.from({ length: MAX_SPANS + 1 }, () => protoSpan('chat'));
    const answer = await postProto(protoExport(spans));
    expect([answer.status, status(answer.bytes).message]).toEqual([
      400,
      `OTLP_TOO_MANY_SPANS: the request holds ${MAX_SPANS + 1} spans, more than OTLP_MAX_SPANS_PER_REQUEST (${MAX_SPANS}): export smaller batches`,
    ]);
    expect(await stored(spans[0].spanId.toString('hex'))).toBeUndefined();
  });

  it('refuses strings that are not UTF-8 (protobuf and JSON), and refuses alone a span PostgreSQL could not store', async () => {
    const body = protoExport([protoSpan('chat\u00e9')]);
    const at = body.indexOf(Buffer.from('chat\u00e9'));
    body[at + 4] = 0xff;
    body[at + 5] = 0xfe;
    const proto = await postProto(body);
    expect([proto.status, status(proto.bytes).message]).toEqual([
      400,
      'OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in binary protobuf: resourceSpans[0].scopeSpans[0].spans[0].name is not valid UTF-8, which proto3 requires of a string',
    ]);
    const json = await postJson(
      Buffer.concat([Buffer.from('{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}]}]}')]),
    );
    expect([json.status, json.json.message]).toEqual([400, 'OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in JSON: it is not valid UTF-8']);
    const nul = jsonSpan([{ key: 'gen_ai.input.messages', value: { stringValue: 'a\u0000b' } }]);
    const answer = await postJson(jsonExport([nul]));
    expect(answer.json.partialSuccess.errorMessage).toMatch(/its requestBody holds U\+0000 or a lone surrogate, which PostgreSQL cannot store$/);
  });

  it('takes a time to first chunk past the span as unknown, and names a decision whose answer no log can hold', async () => {
    for (const doubleValue of [1e17, 1e300, 0.5]) {
      const span = jsonSpan([{ key: 'gen_ai.response.time_to_first_chunk', value: { doubleValue } }]);
      expect(await postJson(jsonExport([span]))).toMatchObject({ status: 200, json: {} });
      expect((await stored(span.spanId)).first_byte_at).toEqual(doubleValue < 1 ? new Date(1795863600500) : null);
    }
    // Stored as text (the escape), but U+0000 once read: the log that would hold it is refused, naming the call.
    const escaped = jsonSpan([
      { key: 'gen_ai.output.messages', value: { stringValue: '[{"role":"assistant","content":"BUY\\u0000"}]' } },
      { key: 'weex.order_id', value: { stringValue: '737185556881998189' } },
    ]);
    const answer = await postJson(jsonExport([escaped]));
    expect(answer.json.partialSuccess.errorMessage).toMatch(
      /the trace's model calls: model call [0-9a-f-]{36}: its answer.text must be text PostgreSQL can store/,
    );
  });

  it('refuses values nested past the decoders (protobuf and JSON) with 400', async () => {
    // AnyValue{array_value{values: AnyValue{...}}} 100,000 deep, written from the outside in (each level's lengths first).
    const depth = 100_000;
    const varint = (n: number) => {
      const out = [];
      while (n > 127) {
        out.push((n & 127) | 128);
        n >>>= 7;
      }
      out.push(n);
      return out;
    };
    const inner = [0x0a, 0x01, 0x78]; // string_value "x"
    const lengths: Array<[number, number]> = [];
    let size = inner.length;
    for (let i = 0; i < depth; i++) {
      const array = 1 + varint(size).length + size;
      lengths.push([size, array]);
      size = 1 + varint(array).length + array;
    }
    const nested: number[] = [];
    for (let i = depth - 1; i >= 0; i--) nested.push(0x2a, ...varint(lengths[i][1]), 0x0a, ...varint(lengths[i][0]));
    const value = Buffer.from([...nested, ...inner]);
    const kv = Buffer.concat([Buffer.from([0x0a, 1, 0x6b, 0x12, ...varint(value.length)]), value]);
    const span = Buffer.concat([Buffer.from([0x4a, ...varint(kv.length)]), kv]);
    const scope = Buffer.concat([Buffer.from([0x12, ...varint(span.length)]), span]);
    const resource = Buffer.concat([Buffer.from([0x12, ...varint(scope.length)]), scope]);
    const body = Buffer.concat([Buffer.from([0x0a, ...varint(resource.length)]), resource]);
    const proto = await postProto(body);
    expect([proto.status, status(proto.bytes).message]).toEqual([
      400,
      expect.stringMatching(
        /^OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in binary protobuf: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.attributes\[0\]\.value\.arrayValue.*\.\.\. nests more than 64 messages deep$/,
      ),
    ]);
    // JSON counts messages as protobuf does, naming where; text nested past any request is refused before parsing.
    const jsonNested = (levels: number) =>
      postJson(
        `{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"k","value":${'{"arrayValue":{"values":['.repeat(levels)}{}${']}}'.repeat(levels)}}]}]}]}]}`,
      );
    const json = await jsonNested(31);
    expect([json.status, json.json.message]).toEqual([
      400,
      expect.stringMatching(
        /^OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in JSON: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.attributes\[0\]\.value\.arrayValue.*\.\.\. nests more than 64 messages deep$/,
      ),
    ]);
    const deeper = await jsonNested(100);
    expect([deeper.status, deeper.json.message]).toEqual([
      400,
      'OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in JSON: it is not JSON (JSON nests deeper than 130 levels)',
    ]);
  });

  it('answers a missing or wrong key with 401 and a key without logs:write with 403, as Status', async () => {
    const none = await fetch(`${suite.harness.apiUrl}/otlp/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: protoExport([protoSpan('chat')]),
    });
    expect([none.status, status(Buffer.from(await none.arrayBuffer()))]).toEqual([
      401,
      { code: 16, message: 'UNAUTHORIZED: Authorization header must be "Bearer <agent key>"' },
    ]);
    const wrong = await postJson(jsonExport([jsonSpan()]), { authorization: 'Bearer agk_not-a-key-of-this-gateway' });
    expect([wrong.status, wrong.json]).toEqual([401, { code: 16, message: 'UNAUTHORIZED: unknown or revoked agent key' }]);
  });

  it("counts each model-call span against the key's rate limit: 429 with Retry-After, and 400 for an export that never fits", async () => {
    const created = await fetch(`${suite.harness.apiUrl}/admin/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ accountId: 'default', label: 'otlp-limited', rateLimitPerMin: 10 }),
    });
    const { key } = (await created.json()) as { key: string };
    const spans = (n: number) => jsonExport(Array.from({ length: n }, () => jsonSpan()));
    const withKey = { authorization: `Bearer ${key}` };
    expect((await postJson(spans(8), withKey)).status).toBe(200);
    const over = await postJson(spans(5), withKey);
    expect([over.status, Number(over.retryAfter) > 0, over.json.message]).toEqual([
      429,
      true,
      expect.stringMatching(
        /^RATE_LIMITED: the 5 model-call and decision spans of this request would take this agent key over its limit of 10 a minute; retry in \d+ s$/,
      ),
    ]);
    const never = await postJson(spans(11), withKey);
    expect([never.status, never.json.message]).toEqual([
      400,
      'OTLP_OVER_RATE_LIMIT: the request holds 11 model-call and decision spans, more than this agent key may send in a minute (10): export smaller batches',
    ]);
  });

  it('never answers random bytes with a 5xx', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 200; i++) {
      const body = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256)));
      const { status: code } = await postProto(body);
      expect({ i, refused: [200, 400].includes(code) ? 'with a 4xx or accepted' : code }).toEqual({ i, refused: 'with a 4xx or accepted' });
    }
  });
});
