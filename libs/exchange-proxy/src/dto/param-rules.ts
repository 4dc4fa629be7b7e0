import { registerDecorator } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { readExchangeId } from './exchange-id.js';
import { DAY_MS } from '#libs/common';

export { DAY_MS };

/** Returns what is wrong with a value (naming `path`), or undefined when it is fine. */
type Check = (value: unknown, path: string, dto: Record<string, unknown>) => string | undefined;

/**
 * A class-validator rule from one function, so that the test and the message cannot disagree, with the JSON schema
 * that describes it in the OpenAPI document (custom rules are otherwise invisible there).
 */
export function rule(name: string, check: Check, schema?: Record<string, unknown>): PropertyDecorator {
  return (target, property) => {
    if (schema) JSONSchema(schema)(target, String(property));
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(property),
      validator: {
        validate: (value, args) => check(value, args!.property, args!.object as Record<string, unknown>) === undefined,
        defaultMessage: (args) => check(args!.value, args!.property, args!.object as Record<string, unknown>) ?? `${args!.property} is invalid`,
      },
    });
  };
}

const ID_SCHEMA = (min: bigint) => ({
  oneOf: [
    { type: 'integer', minimum: Number(min) },
    { type: 'string', pattern: '^[0-9]+$' },
  ],
  description: `A 64-bit ID, ${min} to 2^63-1: a JSON integer of any size or a string of digits; kept digit-exact`,
  example: '737185556881998184',
});

const missing = (value: unknown) => value === undefined || value === null;

/** A trading pair in either notation: `BTCUSDT` (v3) or `cmt_btcusdt` (v2); the client sends the one each path needs. */
export const IsSymbol = () =>
  rule(
    'isSymbol',
    (value, path) => {
      if (missing(value)) return `${path} is required`;
      return typeof value === 'string' && /^(?:cmt_)?[a-z0-9]{2,30}$/i.test(value) ? undefined : `${path} must be a trading pair like BTCUSDT or cmt_btcusdt`;
    },
    { type: 'string', pattern: '^(cmt_)?[A-Za-z0-9]{2,30}$', description: 'Either notation: BTCUSDT or cmt_btcusdt', example: 'BTCUSDT' },
  );

/** An integer in [min, max]; `fallback` is what the exchange takes when it is not given (for the document). */
export const IsIntFrom = (min: number, max = Number.MAX_SAFE_INTEGER, fallback?: number) =>
  rule(
    'isIntFrom',
    (value, path) =>
      Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
        ? undefined
        : `${path} must be an integer ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`}`,
    { type: 'integer', minimum: min, ...(max === Number.MAX_SAFE_INTEGER ? {} : { maximum: max }), ...(fallback === undefined ? {} : { default: fallback }) },
  );

/** A Unix time in milliseconds. */
export const IsMillis = () =>
  rule(
    'isMillis',
    (value, path) =>
      Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : `${path} must be a Unix time in milliseconds (a non-negative integer)`,
    { type: 'integer', minimum: 0, description: 'Unix time in milliseconds' },
  );

const bothTimes = (value: unknown, other: unknown): value is number => Number.isSafeInteger(value) && Number.isSafeInteger(other);

/** Not before another time field (checked only when both are valid times). */
export const NotBefore = (other: string) =>
  rule('notBefore', (value, path, dto) => (bothTimes(value, dto[other]) && value < (dto[other] as number) ? `${path} must not be before ${other}` : undefined));

/** At most `days` days after another time field (checked only when both are valid times). */
export const WithinDaysOf = (other: string, days: number) =>
  rule('withinDaysOf', (value, path, dto) =>
    bothTimes(value, dto[other]) && value - (dto[other] as number) > days * DAY_MS ? `${path} must be within ${days} days of ${other}` : undefined,
  );

/** A 64-bit exchange ID: a JSON integer of any size or a string of digits, from `min` (default 1). */
export const IsExchangeId = (min = 1n) =>
  rule(
    'isExchangeId',
    (value, path) => {
      if (missing(value)) return `${path} is required`;
      const read = readExchangeId(value, path, min);
      return 'error' in read ? read.error : undefined;
    },
    ID_SCHEMA(min),
  );

/** A non-empty list of exchange IDs; the message names the first bad item (`ids.2`). */
export const IsExchangeIdList = (missingMessage: string) =>
  rule(
    'isExchangeIdList',
    (value, path) => {
      if (missing(value)) return missingMessage;
      if (!Array.isArray(value) || value.length === 0) return `${path} must be a non-empty list`;
      for (const [i, item] of value.entries()) {
        const read = readExchangeId(item, `${path}.${i}`);
        if ('error' in read) return read.error;
      }
      return undefined;
    },
    { type: 'array', minItems: 1, items: ID_SCHEMA(1n) },
  );

/** A non-empty string of at most `max` characters. */
export const IsText = (max: number) =>
  rule(
    'isText',
    (value, path) => {
      if (missing(value)) return `${path} is required`;
      return typeof value === 'string' && value.length > 0 && value.length <= max
        ? undefined
        : `${path} must be a non-empty string of at most ${max} characters`;
    },
    { type: 'string', minLength: 1, maxLength: max },
  );

/** A non-empty list of non-empty strings of at most `max` characters each. */
export const IsTextList = (max: number) =>
  rule(
    'isTextList',
    (value, path) => {
      if (!Array.isArray(value) || value.length === 0) return `${path} must be a non-empty list`;
      const bad = value.findIndex((item) => typeof item !== 'string' || item.length === 0 || item.length > max);
      return bad < 0 ? undefined : `${path}.${bad} must be a non-empty string of at most ${max} characters`;
    },
    { type: 'array', minItems: 1, items: { type: 'string', minLength: 1, maxLength: max } },
  );

/** Refused when another field is given too: for "exactly one of" pairs. */
export const AbsentWith = (other: string) =>
  rule('absentWith', (_value, path, dto) => (missing(dto[other]) ? undefined : `${path} must not be given together with ${other}: give exactly one of them`));
