import { ValidationFailedException } from '#libs/validation';

/**
 * Headers whose second copy would make the request mean two things: Node keeps the first Authorization and
 * Content-Type and joins Idempotency-Key's copies with ", ", while a proxy in front may have read the last. By name
 * length first, so that the usual header costs one comparison (this runs for every request).
 */
const ONCE = new Map([
  [13, 'authorization'],
  [12, 'content-type'],
  [15, 'idempotency-key'],
]);

/** A 400 naming the first such header sent more than once, or undefined. `raw` is Node's rawHeaders (name, value, ...). */
export function repeatedHeader(raw: readonly string[]): ValidationFailedException | undefined {
  let seen: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const once = ONCE.get(raw[i].length);
    if (once === undefined || raw[i].toLowerCase() !== once) continue;
    if (seen?.includes(once)) return new ValidationFailedException([{ path: once, message: `the ${once} header must be sent once` }]);
    (seen ??= []).push(once);
  }
  return undefined;
}
