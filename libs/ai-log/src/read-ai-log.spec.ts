import fc from 'fast-check';
import { jsonMayHoldUnstorableText, LosslessNumber, parseJson, stringifyJson } from '#libs/common';
import { validateBody, ValidationFailedException } from '#libs/validation';
import { CreateAiLogDto } from './create-ai-log.dto.js';
import { plainlyValid, readAiLog } from './read-ai-log.js';

/** class-validator's verdict alone: the reference the hand check must agree with. */
function classValidatorAccepts(body: unknown): boolean {
  try {
    validateBody(CreateAiLogDto, body);
    return true;
  } catch (error) {
    if (!(error instanceof ValidationFailedException)) throw error;
    return false;
  }
}

const valid = { stage: 'decision', model: 'm-1', input: { a: 1 }, output: { b: [2] }, explanation: 'why' };

/** Text PostgreSQL cannot store (lone surrogates of both halves, U+0000), beside text it can, pairs included. */
const oddText = fc.constantFrom('\ud800', '\udc00', 'a\ud83d', '\ude00b', 'x\u0000', '\u0000', '\ud83d\ude00', 'é', '\\ud800');
/** JSON objects holding such text as a key or a value, at some depth. */
const oddObject = fc.letrec((tie) => ({
  object: fc.dictionary(fc.oneof(fc.string({ maxLength: 2 }), oddText), tie('value'), { maxKeys: 3, noNullPrototype: true }),
  value: fc.oneof({ depthSize: 'small' }, oddText, fc.integer(), tie('object'), fc.array(tie('value'), { maxLength: 3 })),
})).object;

// Values near every rule's edge, for any field: the right type and the wrong ones.
const anyValue = fc.oneof(
  oddText,
  oddObject,
  fc.constant(undefined),
  fc.constant(null),
  fc.constantFrom(
    '',
    'x',
    '12',
    '0',
    '-5',
    '1.5',
    '😀'.repeat(500),
    '😀'.repeat(501),
    'a'.repeat(1000),
    'a'.repeat(1001),
    'a'.repeat(998) + '😀',
    'a'.repeat(999) + '😀',
    '😀'.repeat(1000),
  ),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 1.5, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER),
  fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }),
  fc.constantFrom(9_223_372_036_854_775_807n, 9_223_372_036_854_775_808n),
  fc.constantFrom(new LosslessNumber('1e400'), new LosslessNumber('5.0')),
  fc.boolean(),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.constant(new Date(0)),
  fc.constant(Object.create(null)),
);

const fields = {
  orderId: anyValue,
  stage: fc.oneof(fc.constant(valid.stage), anyValue),
  model: fc.oneof(fc.constant(valid.model), anyValue),
  input: fc.oneof(fc.constant(valid.input), anyValue),
  output: fc.oneof(fc.constant(valid.output), anyValue),
  explanation: fc.oneof(fc.constant(valid.explanation), anyValue),
  extra: anyValue,
  constructor: anyValue,
};
/** Bodies as a parser makes them: plain objects. */
const parsedBody = fc.record(fields, { requiredKeys: [], noNullPrototype: true });
/** Valid logs but for text PostgreSQL may not store, in any of their strings, keys and values at any depth. */
const oddLog = fc.record(
  {
    stage: fc.oneof(fc.constant(valid.stage), oddText),
    model: fc.oneof(fc.constant(valid.model), oddText),
    input: fc.oneof(fc.constant(valid.input), oddObject),
    output: fc.oneof(fc.constant(valid.output), oddObject),
    explanation: fc.oneof(fc.constant(valid.explanation), oddText),
  },
  { noNullPrototype: true },
);
/** Any object at all, null prototypes included, which the hand check may decline but must never wrongly accept. */
const anyBody = fc.record(fields, { requiredKeys: [] });

describe('readAiLog', () => {
  it('gives class-validator’s verdict on every body a parser can make, well-formed or not', () => {
    fc.assert(
      fc.property(fc.oneof(parsedBody, oddLog, anyValue), (candidate) => {
        expect(plainlyValid(candidate)).toBe(classValidatorAccepts(candidate));
      }),
      { numRuns: 5_000 },
    );
  });

  it('gives the same verdict without looking for unstorable text where the body’s text proves there is none', () => {
    let proven = 0;
    fc.assert(
      fc.property(fc.oneof(parsedBody, oddLog), (candidate) => {
        const text = stringifyJson(candidate);
        if (jsonMayHoldUnstorableText(text)) return;
        proven++;
        const body = parseJson(text);
        expect(plainlyValid(body, false)).toBe(classValidatorAccepts(body));
      }),
      { numRuns: 3_000 },
    );
    expect(proven).toBeGreaterThan(300);
  });

  it('names an unstorable string by its exact path, and a key by the object that holds it', () => {
    const errors = (body: unknown) => {
      try {
        readAiLog(body);
      } catch (error) {
        return (error as ValidationFailedException).errors;
      }
      throw new Error('accepted');
    };
    expect(errors({ ...valid, input: { a: { b: [0, 1, '\ud800'] } } })).toEqual([
      { path: 'input.a.b.2', message: 'input.a.b.2 must be text PostgreSQL can store: it contains a lone UTF-16 surrogate (\\ud800), which is not Unicode' },
    ]);
    expect(errors({ ...valid, output: { 'k\udc00': 1 }, stage: '' })).toEqual([
      { path: 'stage', message: 'stage should not be empty' },
      { path: 'output', message: 'output has a key PostgreSQL cannot store, "k\\udc00": it contains a lone UTF-16 surrogate (\\udc00), which is not Unicode' },
    ]);
    expect(errors({ ...valid, explanation: 'why\u0000' })).toEqual([
      { path: 'explanation', message: 'explanation must be text PostgreSQL can store: it contains the character U+0000' },
    ]);
  });

  it('accepts nothing class-validator refuses, whatever the object', () => {
    fc.assert(
      fc.property(anyBody, (candidate) => {
        if (plainlyValid(candidate)) expect(classValidatorAccepts(candidate)).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  });

  it('agrees on bodies as the parser makes them, 64-bit and odd numbers included', () => {
    for (const orderId of ['737185556881998184', '"737185556881998184"', '9223372036854775808', '1e2', '5.0', '0', 'null', '"12a"']) {
      const text = `{"orderId":${orderId},"stage":"s","model":"m","input":{"x":1e400},"output":{},"explanation":""}`;
      expect(plainlyValid(parseJson(text))).toBe(classValidatorAccepts(parseJson(text)));
    }
  });

  it('returns the same DTO either way, and the field errors of class-validator', () => {
    const body = { orderId: 737185556881998184n, ...valid };
    expect(readAiLog(body)).toEqual(validateBody(CreateAiLogDto, body));
    expect(readAiLog(body)).toBeInstanceOf(CreateAiLogDto);
    expect(() => readAiLog({ ...valid, input: 7 })).toThrow(ValidationFailedException);
  });

  it('refuses a number where an object belongs, which IsObject let through as a LosslessNumber', () => {
    const text = '{"stage":"s","model":"m","input":1e400,"output":{},"explanation":""}';
    let thrown: unknown;
    try {
      readAiLog(parseJson(text));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationFailedException);
    expect((thrown as ValidationFailedException).errors).toEqual([{ path: 'input', message: 'input must be a JSON object' }]);
  });
});
