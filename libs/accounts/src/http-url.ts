import { registerDecorator, type ValidationArguments } from 'class-validator';

/**
 * What is wrong with a base URL an admin gives (a provider's, where calls' paths are appended), as the rule it breaks;
 * undefined when it is an http(s) URL without user:password, query or fragment.
 */
export function httpBaseUrlProblem(value: unknown, keyField: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return 'must be an http(s) URL, such as https://api.openai.com/v1';
  // WHATWG's URL says only "Invalid URL" of a port past 65535: found first, to say so.
  const port = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(value)?.[1];
  if (port !== undefined && (Number(port) > 65535 || Number(port) === 0)) return `has port ${port}: a port is 1 to 65535`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http(s) URL, such as https://api.openai.com/v1: this one cannot be read as a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must start with http:// or https://, not ${url.protocol}`;
  if (url.username !== '' || url.password !== '') return `must hold no user:password (the key goes in ${keyField})`;
  if (/[?#]/.test(value)) return 'must have no query or fragment: the call’s path is appended to it';
  return undefined;
}

/** An http(s) base URL, refused naming the rule it breaks (httpBaseUrlProblem). */
export function IsHttpBaseUrl(keyField: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isHttpBaseUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => httpBaseUrlProblem(value, keyField) === undefined,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${httpBaseUrlProblem(args?.value, keyField)}`,
      },
    });
}
