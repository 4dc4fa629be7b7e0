import type { FieldError } from './field-error.js';
import { validateBody } from './validate-body.js';
import { ValidationFailedException } from './validation-failed.exception.js';

type Constructor<T> = new () => T;

const INTEGER_FIELDS = Symbol('query-integer-fields');

/**
 * Marks a DTO property as an integer query parameter: validateQuery turns its digit string into a number before the
 * DTO's own rules run. Put the range rule beside it; a value that is not a safe integer stays a string and fails it.
 */
export function QueryInteger(): PropertyDecorator {
  return (target, property) => {
    const owner = target as { [INTEGER_FIELDS]?: Set<string> };
    // Copied, so that a subclass does not add to its parent's set.
    owner[INTEGER_FIELDS] = new Set([...(owner[INTEGER_FIELDS] ?? []), String(property)]);
  };
}

/**
 * Validates a query string (Fastify's parsed object: strings, or arrays for a repeated key) against a class-validator
 * DTO and returns a DTO instance. Everything arrives as text, so fields marked {@link QueryInteger} are converted
 * explicitly; nothing else is coerced. A repeated or unknown parameter is refused. Every failing field is listed.
 */
export function validateQuery<T extends object>(dto: Constructor<T>, query: unknown): T {
  const integers = (dto.prototype as { [INTEGER_FIELDS]?: Set<string> })[INTEGER_FIELDS] ?? new Set<string>();
  const entries = query !== null && typeof query === 'object' ? Object.entries(query) : [];
  const repeated: FieldError[] = [];
  const values: Array<[string, unknown]> = [];
  for (const [name, value] of entries) {
    if (Array.isArray(value)) repeated.push({ path: name, message: `${name} must be given once` });
    else values.push([name, integers.has(name) ? toInteger(value) : value]);
  }
  const errors = [...repeated];
  let instance: T | undefined;
  try {
    instance = validateBody(dto, Object.fromEntries(values));
  } catch (error) {
    if (!(error instanceof ValidationFailedException)) throw error;
    errors.push(...error.errors);
  }
  if (errors.length > 0) throw new ValidationFailedException(errors);
  return instance!;
}

/** For endpoints that take no query parameters: each one given is refused, as validateQuery refuses unknown ones. */
export function expectNoQuery(query: unknown): void {
  const names = query !== null && typeof query === 'object' ? Object.keys(query) : [];
  if (names.length > 0) throw new ValidationFailedException(names.map((path) => ({ path, message: `${path} is not a known field` })));
}

function toInteger(value: unknown): unknown {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}
