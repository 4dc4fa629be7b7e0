import { parseJson } from '#libs/common';
import { validateBody, ValidationFailedException } from '#libs/validation';
import { CreateAiLogDto } from './create-ai-log.dto.js';

const valid = { stage: 's', model: 'm', input: {}, output: {}, explanation: '' };

function errorsOf(body: unknown): Record<string, string[]> {
  try {
    validateBody(CreateAiLogDto, body);
    return {};
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedException);
    const result: Record<string, string[]> = Object.create(null);
    for (const e of (error as ValidationFailedException).errors) (result[e.path] ??= []).push(e.message);
    return result;
  }
}

describe('CreateAiLogDto', () => {
  it('accepts a minimal log and a null orderId', () => {
    expect(errorsOf(valid)).toEqual({});
    expect(errorsOf({ ...valid, orderId: null })).toEqual({});
  });

  it('counts explanation length in UTF-16 code units, as WEEX (Java) does: an emoji counts 2', () => {
    expect(errorsOf({ ...valid, explanation: 'a'.repeat(1000) })).toEqual({});
    expect(errorsOf({ ...valid, explanation: 'a'.repeat(998) + '😀' })).toEqual({});
    expect(errorsOf({ ...valid, explanation: '😀'.repeat(500) })).toEqual({});
    // 1000 code points, 1001 UTF-16 units: Java's String.length() says 1001.
    expect(errorsOf({ ...valid, explanation: 'a'.repeat(999) + '😀' })).toEqual({
      explanation: [
        'explanation must be at most 1000 characters counted as UTF-16 code units, as WEEX (Java) counts them, an emoji counting 2; got 1001 (1000 code points)',
      ],
    });
    expect(errorsOf({ ...valid, explanation: '😀'.repeat(501) }).explanation).toHaveLength(1);
  });

  it('names every failing field, unknown ones included', () => {
    const errors = errorsOf({ stage: '', input: [], output: null, explanation: 7, extra: 1 });
    expect(Object.keys(errors).sort()).toEqual(['explanation', 'extra', 'input', 'model', 'output', 'stage']);
    expect(errors.extra).toEqual(['extra is not a known field']);
  });

  it('keeps a 64-bit orderId from the parsed body exact', () => {
    const dto = validateBody(CreateAiLogDto, parseJson(`{"orderId":737185556881998184,"stage":"s","model":"m","input":{},"output":{},"explanation":""}`));
    expect(dto.orderId).toBe(737185556881998184n);
  });

  it('rejects a body that is not an object', () => {
    expect(errorsOf([1, 2])).toEqual({ '': ['body must be a JSON object'] });
  });
});

describe('CreateAiLogDto, keys the class inherits', () => {
  it('names constructor and toString as unknown fields instead of failing inside class-validator', () => {
    expect(errorsOf({ ...valid, constructor: null, toString: 1 })).toEqual({
      constructor: ['constructor is not a known field'],
      toString: ['toString is not a known field'],
    });
    expect(errorsOf({ ...valid, stage: '', constructor: 1 })).toEqual({
      stage: ['stage should not be empty'],
      constructor: ['constructor is not a known field'],
    });
  });

  it('names a parsed __proto__ key as an unknown field, and leaves the prototype alone', () => {
    const body = parseJson('{"stage":"s","model":"m","input":{},"output":{},"explanation":"","__proto__":{"stage":""}}');
    expect(Object.entries(errorsOf(body))).toEqual([['__proto__', ['__proto__ is not a known field']]]);
  });
});
