import { type ValidationError, validateSync } from 'class-validator';
import type { FieldError } from './field-error.js';
import { ValidationFailedException } from './validation-failed.exception.js';

type Constructor<T> = new () => T;

/**
 * Validates a parsed JSON body against a class-validator DTO, rejecting unknown fields, and returns a DTO instance.
 * Values are copied as they are (no class-transformer pass), so lossless numbers and nested JSON stay intact.
 */
export function validateBody<T extends object>(dto: Constructor<T>, body: unknown): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationFailedException([{ path: '', message: 'body must be a JSON object' }]);
  }
  const instance = new dto();
  // A key the class inherits (`constructor`, `toString`) would replace what class-validator reads on the instance
  // (it finds the rules through `constructor`): such keys are unknown fields, and are not copied.
  const inherited = Object.keys(body).filter((key) => key in instance && !Object.hasOwn(instance, key));
  Object.assign(instance, inherited.length > 0 ? withoutKeys(body, inherited) : body);
  const errors = flatten(validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }));
  errors.push(...inherited.map((key) => ({ path: key, message: `${key} is not a known field` })));
  if (errors.length > 0) throw new ValidationFailedException(errors);
  return instance;
}

function withoutKeys(body: object, keys: string[]): object {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));
}

/** Rules on a value's type: when one fails, the value's range or length rules would only add noise ("abc" is not < 1). */
const TYPE_RULES = new Set(['isInt', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isObject']);

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const failed = Object.entries(error.constraints ?? {});
    const ofType = failed.filter(([rule]) => TYPE_RULES.has(rule));
    const own = (ofType.length > 0 ? ofType : failed).map(([rule, message]) => ({
      path,
      message: rule === 'whitelistValidation' ? `${path} is not a known field` : message,
    }));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}
