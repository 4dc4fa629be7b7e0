import fc from 'fast-check';
import { stringify } from 'lossless-json';
import { LosslessNumber, parseJson, parseJsonFast, parseJsonSlowly, stringifyJson } from './json.js';

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

  it('keeps every number exactly as written: -0, -0.0, 1.50 and 1E2 print back as they came', () => {
    for (const text of ['-0', '-0.0', '1.50', '1E2', '0.10', '0.0000001', '1e-7', '-0.5', '0', '100', '1e+21', '737185556881998184']) {
      expect(stringifyJson(parseJson(`{"a":[${text}]}`))).toBe(`{"a":[${text}]}`);
      expect(stringifyJson(parseJsonSlowly(`[${text}]`))).toBe(`[${text}]`);
    }
  });

  it('prints back any number token of the JSON grammar as written', () => {
    const token = fc
      .tuple(
        fc.constantFrom('', '-'),
        fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,22}$/)),
        fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{1,20}$/)),
        fc.oneof(fc.constant(''), fc.stringMatching(/^[eE][+-]?[0-9]{1,3}$/)),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(token, (text) => {
        expect(stringifyJson(parseJson(`[${text}]`))).toBe(`[${text}]`);
      }),
      { numRuns: 5_000 },
    );
  });

  it('refuses nesting deeper than the limit, counting only brackets outside strings', () => {
    expect(() => parseJson('['.repeat(65) + ']'.repeat(65))).toThrow(/deeper than 64/);
    expect(parseJson('['.repeat(64) + ']'.repeat(64))).toBeDefined();
    expect(parseJson(`{"s":"${'['.repeat(100)}\\"["}`)).toEqual({ s: `${'['.repeat(100)}"[` });
  });

  it('rejects duplicate keys and malformed text', () => {
    expect(() => parseJson('{"a":1,"a":2}')).toThrow(/Duplicate key/);
    expect(() => parseJson('{"a":')).toThrow();
  });
});

describe('parseJson fast path', () => {
  /** Whether the fast path answered; where it did, its answer must be the lossless parser's, and so must parseJson's. */
  const same = (text: string): boolean => {
    const fast = parseJsonFast(text);
    let expected: unknown;
    try {
      expected = parseJsonSlowly(text);
    } catch (error) {
      expect(fast).toBeUndefined();
      expect(() => parseJson(text)).toThrow((error as Error).message);
      return false;
    }
    if (fast !== undefined) expect(fast).toEqual(expected);
    expect(parseJson(text)).toEqual(expected);
    return fast !== undefined;
  };

  it('answers for an agent’s log with a 64-bit order id, exponents and long decimals, as the lossless parser does', () => {
    const texts = [
      '{"orderId":737185556881998184,"a":[1,-2,0.5,-0,0,1e400,12345678901234567890123,1E2,5.0,-3E+0,0.10,2.50]}',
      '[123456789012345,1234567890123456,9007199254740993,-9007199254740993,0.1234567890123456,1.5e3,1e-7]',
      '737185556881998184',
      '"737185556881998184"',
      '{"s":"a:737185556881998184,b","t":"\\"1.0\\"","u":"\\\\"}',
      '{"a":1,"b":{"c":[true,null,"x"]}}',
      '{"x":[{"y":[{"z":1e2}]}],"w":{}}',
      ' [ ] ',
    ];
    for (const text of texts) expect(same(text)).toBe(true);
  });

  it('leaves to the lossless parser what it cannot vouch for, with the same answers and errors', () => {
    const texts = [
      '{"a":1,"a":1}',
      '{"a":1,"a":2}',
      '{"__proto__":{"x":1},"y":2}',
      '{"a":1.}',
      '{"a":01}',
      '{737185556881998184:1}',
      '[1 2]',
      '{"a":"\\u0000","b":737185556881998184}',
      '{"a":-}',
      '{"a":1e5e5}',
    ];
    for (const text of texts) expect(same(text)).toBe(false);
  });

  it('answers as the lossless parser for generated JSON, with and without duplicate keys', () => {
    const number = fc.oneof(
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      fc.integer().map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc
        .tuple(fc.integer({ min: -99, max: 99 }), fc.stringMatching(/^[0-9]{1,20}$/), fc.constantFrom('', 'e5', 'E-3', 'e+400'))
        .map(([i, f, e]) => `${i}.${f}${e}`),
    );
    const text = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        number,
        fc.string().map((s) => JSON.stringify(s)),
        fc.constantFrom('true', 'null'),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
      object: fc
        .array(fc.tuple(fc.constantFrom('a', 'b', 'orderId', 'x:1'), tie('value')), { maxLength: 4 })
        .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    })).value as fc.Arbitrary<string>;
    let fast = 0;
    fc.assert(
      fc.property(text, (t) => void (same(t) && fast++)),
      { numRuns: 2_000 },
    );
    // Most generated texts have no duplicate key: the fast path must have answered for many of them.
    expect(fast).toBeGreaterThan(500);
  });
});

describe('stringifyJson', () => {
  it('writes what lossless-json writes, natively when no bigint or LosslessNumber is in the value', () => {
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 2 }),
        fc.bigInt(),
        fc.constantFrom(new LosslessNumber('1e400'), new LosslessNumber('5.0'), new Date(0), undefined),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
    })).value;
    fc.assert(
      fc.property(value, (v) => {
        const expected = stringify(v);
        if (expected === undefined) expect(() => stringifyJson(v)).toThrow(TypeError);
        else expect(stringifyJson(v)).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it('never writes a LosslessNumber as an object', () => {
    expect(stringifyJson({ a: [new LosslessNumber('737185556881998184')], b: 1 })).toBe('{"a":[737185556881998184],"b":1}');
    expect(stringifyJson({ s: 'a\u0000b', n: new LosslessNumber('5.0') })).toBe('{"s":"a\\u0000b","n":5.0}');
  });
});

describe('parseJson and very long numbers', () => {
  it('reads an integer longer than any 64-bit one as its text, not as a bigint (BigInt reads one in quadratic time)', () => {
    const long = '9'.repeat(42);
    const value = parseJson(`{"n":${long},"id":${'9'.repeat(41)}}`) as { n: unknown; id: unknown };
    expect(value.n).toBeInstanceOf(LosslessNumber);
    expect(String(value.n)).toBe(long);
    expect(typeof value.id).toBe('bigint');
    expect(stringifyJson(value)).toBe(`{"n":${long},"id":${'9'.repeat(41)}}`);
  });
});
