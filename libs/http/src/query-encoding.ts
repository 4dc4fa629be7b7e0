import type { FieldError } from '#libs/validation';

/**
 * The first query parameter whose percent-encoding is not UTF-8 (`asset=%FF`, `%ED%A0%80`), named, or undefined.
 * Fastify's query parser replaces such bytes silently, so the value the route saw was not the one sent. Only a query
 * holding a `%` is looked at: this runs for every request.
 */
export function badlyEncodedQuery(url: string): FieldError | undefined {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return undefined;
  for (const pair of url.slice(start + 1).split('&')) {
    if (!pair.includes('%')) continue;
    const [name, value = ''] = pair.split('=', 2);
    const readName = decodes(name);
    if (readName === undefined) return { path: name, message: 'a query parameter name must be UTF-8, percent-encoded' };
    if (decodes(value) === undefined) return { path: readName, message: `${readName} must be UTF-8, percent-encoded` };
  }
  return undefined;
}

function decodes(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
