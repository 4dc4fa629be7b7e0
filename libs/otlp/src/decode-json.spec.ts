import { decodeJsonTraces } from './decode-json.js';
import { OtlpRequestError } from './otlp-request.error.js';

const decode = (text: string, maxSpans = 10, maxValues = 1_000) => decodeJsonTraces(Buffer.from(text), { maxSpans, maxValues });
const refusal = (text: string, maxSpans = 10, maxValues = 1_000) => {
  try {
    decode(text, maxSpans, maxValues);
  } catch (error) {
    return error instanceof OtlpRequestError ? `${error.status} ${error.code}: ${error.message}` : error;
  }
  return undefined;
};

describe('OTLP JSON', () => {
  it('reads hex ids in either case, int64 from strings and bare numbers exactly, unknown fields ignored', () => {
    const [span] = decode(
      '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"}}]},"scopeSpans":[{"scope":{"name":"x"},"spans":[' +
        '{"traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"eee19b7ec3c1b174","startTimeUnixNano":18446744073709551615,"endTimeUnixNano":"18446744073709551615",' +
        '"attributes":[{"key":"n","value":{"intValue":-9223372036854775808}},{"key":"d","value":{"doubleValue":"NaN"}}],"futureField":{"x":1}}]}]}]}',
    );
    expect(span.traceId).toBe('5b8efff798038103d269b633813fc60c');
    expect([span.startTimeUnixNano, span.endTimeUnixNano]).toEqual([2n ** 64n - 1n, 2n ** 64n - 1n]);
    expect(span.attributes.get('n')).toBe(-(2n ** 63n));
    expect(span.attributes.get('d')).toBeNaN();
    expect(span.resource.get('service.name')).toBe('a');
  });

  it('answers an empty body, and a request with no spans, with no spans', () => {
    expect(decode('')).toEqual([]);
    expect(decode('{}')).toEqual([]);
  });

  it('refuses what it cannot read with 400 naming the path, and too many spans before reading them', () => {
    expect(refusal('{"resourceSpans":{}}')).toBe('400 OTLP_UNDECODABLE: resourceSpans must be an array');
    expect(refusal('{"resourceSpans":[{"scopeSpans":[{"spans":[{"spanId":"xyz"}]}]}]}')).toBe(
      '400 OTLP_UNDECODABLE: resourceSpans[0].scopeSpans[0].spans[0].spanId must be hex digits',
    );
    expect(refusal('{"resourceSpans":[{"scopeSpans":[{"spans":[{"kind":1.5}]}]}]}')).toBe(
      '400 OTLP_UNDECODABLE: resourceSpans[0].scopeSpans[0].spans[0].kind must be a 32-bit integer',
    );
    expect(refusal('{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"k","value":{"intValue":"9223372036854775808"}}]}]}]}]}')).toBe(
      '400 OTLP_UNDECODABLE: resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.intValue must be a 64-bit integer (a decimal string or number)',
    );
    expect(refusal('{"resourceSpans":[{"scopeSpans":[{"spans":[{},{},{}]}]}]}', 2)).toBe(
      '400 OTLP_TOO_MANY_SPANS: the request holds 3 spans, more than OTLP_MAX_SPANS_PER_REQUEST (2): export smaller batches',
    );
    expect(refusal('[1,')).toMatch(/^400 OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in JSON: it is not JSON/);
  });

  it('counts objects, arrays and their members against maxValues before parsing, and bounds nesting', () => {
    const empties = `{"resourceSpans":[${'{},'.repeat(5_000_000)}{}]}`;
    expect(refusal(empties)).toBe(
      '400 OTLP_TOO_MANY_VALUES: the request holds more than OTLP_MAX_VALUES_PER_REQUEST (1000) values (spans, attributes, events and the fields that make them up): export smaller batches',
    );
    expect(refusal(`{"unread":[${'1,'.repeat(2_000)}1]}`)).toMatch(/^400 OTLP_TOO_MANY_VALUES: /);
    expect(refusal(`{"resourceSpans":[${'{},'.repeat(400)}{}]}`)).toBeUndefined();
    expect(refusal(`{"unread":${'['.repeat(130)}${']'.repeat(130)}}`)).toBe(
      '400 OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in JSON: it is not JSON (JSON nests deeper than 130 levels)',
    );
  });

  it('refuses values nested deeper than 64 messages, naming where, as binary protobuf does', () => {
    const request = (value: unknown) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ attributes: [{ key: 'k', value }] }] }] }] });
    const nested = (levels: number, kind: 'arrayValue' | 'kvlistValue') => {
      let value: unknown = { stringValue: 'x' };
      for (let i = 0; i < levels; i++) value = kind === 'arrayValue' ? { arrayValue: { values: [value] } } : { kvlistValue: { values: [{ key: 'k', value }] } };
      return request(value);
    };
    // The attribute's AnyValue is 5 messages deep; each array adds 2 (ArrayValue, AnyValue), each kvlist 3.
    expect(refusal(nested(29, 'arrayValue'))).toBeUndefined();
    expect(refusal(nested(30, 'arrayValue'))).toMatch(/nests more than 64 messages deep$/);
    expect(refusal(nested(31, 'arrayValue'))).toBe(
      '400 OTLP_UNDECODABLE: the body is not an ExportTraceServiceRequest in JSON: resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.arrayValue.values[0].arrayValue.values[0].arrayValue.values[... nests more than 64 messages deep',
    );
    expect(refusal(nested(19, 'kvlistValue'))).toBeUndefined();
    expect(refusal(nested(20, 'kvlistValue'))).toMatch(/^400 OTLP_UNDECODABLE: .*kvlistValue.* nests more than 64 messages deep$/);
  });
});
