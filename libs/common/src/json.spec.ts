import { LosslessNumber, parseJson, stringifyJson } from './json.js';

describe('lossless JSON', () => {
  it('keeps 64-bit integers digit-exact through a parse and stringify', () => {
    const text = '{"orderId":737185556881998184,"n":[1,-2,0.5,1e400,12345678901234567890123]}';
    const value = parseJson(text) as { orderId: unknown };
    expect(value.orderId).toBe(737185556881998184n);
    expect(stringifyJson(value)).toBe(text);
  });

  it('returns ordinary numbers where JavaScript holds them exactly', () => {
    expect(parseJson('[1,2.5,-7]')).toEqual([1, 2.5, -7]);
    expect(parseJson('1e400')).toBeInstanceOf(LosslessNumber);
  });

  it('never turns a fraction or exponent into an integer, and prints it back as written', () => {
    for (const text of ['1E2', '1e2', '5.0', '-3E+0']) {
      expect(parseJson(text)).toBeInstanceOf(LosslessNumber);
      expect(stringifyJson(parseJson(`[${text}]`))).toBe(`[${text}]`);
    }
  });

  it('refuses nesting deeper than the limit, counting only brackets outside strings', () => {
    expect(() => parseJson('['.repeat(65) + ']'.repeat(65))).toThrow(/deeper than 64/);
    expect(parseJson('['.repeat(64) + ']'.repeat(64))).toBeDefined();
    expect(parseJson(`{"s":"${'['.repeat(100)}\\\"["}`)).toEqual({ s: `${'['.repeat(100)}"[` });
  });

  it('rejects duplicate keys and malformed text', () => {
    expect(() => parseJson('{"a":1,"a":2}')).toThrow(/Duplicate key/);
    expect(() => parseJson('{"a":')).toThrow();
  });
});
