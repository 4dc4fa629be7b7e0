import protobuf from 'protobufjs';
import { decodeProtobufTraces } from './decode-protobuf.js';
import { OtlpRequestError } from './otlp-request.error.js';

// opentelemetry-proto's messages as any sender writes them, with fields the gateway does not read (links, flags,
// dropped counts, the scope) to show they are skipped.
const root = protobuf.parse(`
syntax = "proto3";
message Request { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { Scope scope = 1; repeated Span spans = 2; }
message Scope { string name = 1; string version = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9;
  repeated Link links = 13; fixed32 flags = 16;
}
message Link { bytes trace_id = 1; bytes span_id = 2; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; int64 int_value = 3; ArrayValue array_value = 5; KeyValueList kvlist_value = 6; } }
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`).root;
const Request = root.lookupType('Request');

const span = (name: string, attributes: unknown[] = []) => ({
  traceId: Buffer.alloc(16, 1),
  spanId: Buffer.alloc(8, 2),
  traceState: 'x=1',
  name,
  kind: 3,
  startTimeUnixNano: '1795863600000000000',
  endTimeUnixNano: '18446744073709551615',
  attributes,
  links: [{ traceId: Buffer.alloc(16, 3), spanId: Buffer.alloc(8, 4) }],
  flags: 0x301,
});
const encode = (spans: unknown[]) =>
  Buffer.from(
    Request.encode(
      Request.fromObject({
        resourceSpans: [
          { resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] }, scopeSpans: [{ scope: { name: 's' }, spans }] },
        ],
      }),
    ).finish(),
  );
const limits = { maxSpans: 10, maxValues: 1_000 };
const refusal = (body: Buffer, max = limits) => {
  try {
    decodeProtobufTraces(body, max);
  } catch (error) {
    return error instanceof OtlpRequestError ? `${error.status} ${error.code}: ${error.message}` : error;
  }
  return 'decoded';
};
const PREFIX = '400 OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in binary protobuf: ';

describe('OTLP protobuf', () => {
  it('reads what an SDK writes, skipping the fields the gateway does not read', () => {
    const [decoded] = decodeProtobufTraces(encode([span('chat', [{ key: 'n', value: { intValue: '-9223372036854775808' } }])]), limits);
    expect(decoded).toMatchObject({
      traceId: '01'.repeat(16),
      spanId: '02'.repeat(8),
      name: 'chat',
      kind: 3,
      startTimeUnixNano: 1795863600000000000n,
      endTimeUnixNano: 2n ** 64n - 1n,
    });
    expect([decoded.attributes.get('n'), decoded.resource.get('service.name')]).toEqual([-(2n ** 63n), 'agent']);
  });

  it('skips unknown fields of every wire type, groups included', () => {
    // Request field 15 as a varint, an eight-byte, a four-byte and a group holding a nested group.
    const unknown = Buffer.from([0x78, 0x96, 0x01, 0x79, ...Array(8).fill(0), 0x7d, 0, 0, 0, 0, 0x7b, 0x83, 0x01, 0x08, 0x01, 0x84, 0x01, 0x7c]);
    expect(decodeProtobufTraces(Buffer.concat([encode([span('chat')]), unknown]), limits).map((s) => s.name)).toEqual(['chat']);
  });

  it('names the field that a truncated body cuts, and the string that is not UTF-8', () => {
    const whole = encode([span('chat', [{ key: 'k', value: { stringValue: 'a long enough value' } }])]);
    expect(refusal(whole.subarray(0, whole.length - 20))).toBe(
      `${PREFIX}resourceSpans[0] runs past the end of the message that holds it (the body is cut short or a length is wrong)`,
    );
    const body = encode([span('chat\u00e9')]);
    body[body.indexOf(Buffer.from('chat\u00e9')) + 4] = 0xff;
    expect(refusal(body)).toBe(`${PREFIX}resourceSpans[0].scopeSpans[0].spans[0].name is not valid UTF-8, which proto3 requires of a string`);
  });

  it('names a field sent with the wrong wire type, a field numbered 0 and a varint too long', () => {
    // Span.name (field 5) as a varint, inside a span inside a scope inside a resource.
    const nested = (inner: number[]) => {
      const scope = [0x12, inner.length, ...inner];
      const resource = [0x12, scope.length, ...scope];
      return Buffer.from([0x0a, resource.length, ...resource]);
    };
    expect(refusal(nested([0x28, 0x01]))).toBe(`${PREFIX}resourceSpans[0].scopeSpans[0].spans[0].name comes as a varint (0); a string is length-delimited (2)`);
    expect(refusal(nested([0x00, 0x01]))).toBe(`${PREFIX}resourceSpans[0].scopeSpans[0].spans[0] has a field numbered 0, which protobuf does not allow`);
    expect(refusal(nested([0x30, ...Array(10).fill(0xff), 0x01]))).toBe(
      `${PREFIX}resourceSpans[0].scopeSpans[0].spans[0].kind holds a varint longer than 10 bytes`,
    );
    expect(refusal(Buffer.from([0x7c]))).toBe(`${PREFIX}field 15 ends a group that was not started`);
    expect(refusal(Buffer.from([0x0c]))).toBe(`${PREFIX}resourceSpans[0] comes as a group end (4); a ResourceSpans is length-delimited (2)`);
  });

  it('refuses values nested deeper than 64 messages, naming where', () => {
    let value: unknown = { stringValue: 'x' };
    for (let i = 0; i < 40; i++) value = { arrayValue: { values: [value] } };
    expect(refusal(encode([span('chat', [{ key: 'k', value }])]))).toBe(
      `${PREFIX}resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.arrayValue.values[0].arrayValue.values[0].arrayValue.values[... nests more than 64 messages deep`,
    );
  });

  it('draws the nesting line where JSON does: 29 arrays or 19 kvlists in an attribute, not one more', () => {
    const nested = (levels: number, kind: 'arrayValue' | 'kvlistValue') => {
      let value: unknown = { stringValue: 'x' };
      for (let i = 0; i < levels; i++) value = kind === 'arrayValue' ? { arrayValue: { values: [value] } } : { kvlistValue: { values: [{ key: 'k', value }] } };
      return refusal(encode([span('chat', [{ key: 'k', value }])]));
    };
    expect([nested(29, 'arrayValue'), nested(19, 'kvlistValue')]).toEqual(['decoded', 'decoded']);
    expect(nested(30, 'arrayValue')).toMatch(/nests more than 64 messages deep$/);
    expect(nested(20, 'kvlistValue')).toMatch(/nests more than 64 messages deep$/);
  });

  it('counts every field of the request against maxValues, before building any', () => {
    const body = encode([span('a'), span('b')]);
    expect(refusal(body, { maxSpans: 10, maxValues: 20 })).toBe(
      '400 OTLP_TOO_MANY_VALUES: the request holds more than OTLP_MAX_VALUES_PER_REQUEST (20) values (spans, attributes, events and the fields that make them up): export smaller batches',
    );
    expect(refusal(body, { maxSpans: 10, maxValues: 100 })).toBe('decoded');
    // Eight million empty ResourceSpans: 16 MB that protobufjs would make eight million objects of.
    expect(refusal(Buffer.alloc(16_000_000, Buffer.from([0x0a, 0x00])), limits)).toMatch(/^400 OTLP_TOO_MANY_VALUES: /);
    expect(refusal(encode([span('a'), span('b'), span('c')]), { maxSpans: 2, maxValues: 1_000 })).toBe(
      '400 OTLP_TOO_MANY_SPANS: the request holds 3 spans, more than OTLP_MAX_SPANS_PER_REQUEST (2): export smaller batches',
    );
  });
});
