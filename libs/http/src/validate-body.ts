import { type ValidationError, validateSync } from 'class-validator';
import type { FieldError } from './error-body.js';
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
  const instance = Object.assign(new dto(), body);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  if (errors.length > 0) throw new ValidationFailedException(flatten(errors));
  return instance;
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([rule, message]) => ({
      path,
      message: rule === 'whitelistValidation' ? `${path} is not a known field` : message,
    }));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}
