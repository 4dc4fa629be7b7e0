/** A cookie the gateway cannot have set: not of the form it sets, percent-encoded, or sent more than once. */
export const MALFORMED_COOKIE = Symbol('malformed cookie');

/**
 * The value of cookie `name` in a Cookie header: undefined when absent, MALFORMED_COOKIE unless it is there once and
 * matches `form`. Nothing is decoded, so no value can make the parsing throw; other cookies are not looked at.
 */
export function readSingleCookie(header: string | undefined, name: string, form: RegExp): string | typeof MALFORMED_COOKIE | undefined {
  const values = cookieValues(header, name);
  if (values.length === 0) return undefined;
  return values.length === 1 && form.test(values[0]) ? values[0] : MALFORMED_COOKIE;
}

/**
 * The values of cookie `name` in a Cookie header that match `form`, the first `max` of them: undefined when the
 * header names the cookie not at all, [] when it names it only with values the gateway cannot have set.
 */
export function readCookieValues(header: string | undefined, name: string, form: RegExp, max: number): string[] | undefined {
  const values = cookieValues(header, name);
  return values.length === 0 ? undefined : values.filter((value) => form.test(value)).slice(0, max);
}

const cookieValues = (header: string | undefined, name: string): string[] =>
  (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
