import { type FieldError, ValidationFailedException } from '#libs/http';

/** Reads `from`/`to` (ISO-8601 or epoch ms) and `format`; every bad one is named. Default: all logs up to now. */
export function readAuditQuery(query: Record<string, unknown>, formats: readonly string[] = []): { from: Date; to: Date; format?: string } {
  const errors: FieldError[] = [];
  const allowed = new Set(['from', 'to', ...(formats.length ? ['format'] : [])]);
  for (const key of Object.keys(query)) if (!allowed.has(key)) errors.push({ path: key, message: `${key} is not a known parameter` });
  const time = (name: 'from' | 'to', fallback: Date): Date => {
    const text = query[name];
    if (text === undefined) return fallback;
    const date = typeof text === 'string' && /^\d{1,15}$/.test(text) ? new Date(Number(text)) : new Date(String(text));
    if (typeof text !== 'string' || Number.isNaN(date.getTime())) {
      errors.push({ path: name, message: `${name} must be an ISO-8601 time or epoch milliseconds` });
      return fallback;
    }
    return date;
  };
  const from = time('from', new Date(0));
  const to = time('to', new Date(Date.now() + 1));
  if (from > to) errors.push({ path: 'from', message: 'from must not be after to' });
  const format = query.format === undefined ? formats[0] : String(query.format);
  if (formats.length && !formats.includes(format!)) errors.push({ path: 'format', message: `format must be one of ${formats.join(', ')}` });
  if (errors.length) throw new ValidationFailedException(errors);
  return { from, to, format };
}
