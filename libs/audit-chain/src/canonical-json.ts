import { LosslessNumber } from '#libs/common';

/**
 * The canonical JSON text of a value, the form the audit chain hashes: object keys sorted by UTF-16 code units (as
 * JavaScript sorts them), no whitespace, strings escaped as JSON.stringify escapes them, and numbers written as the
 * lossless parser keeps them (a JS number as JSON.stringify writes it, a bigint as its digits, any other number with
 * the digits it was sent with). Parsing the text back with libs/common's parseJson and canonicalising again gives the
 * same text, which is what lets `audit:verify` recompute every hash from an export.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('a non-finite number has no JSON form');
      return JSON.stringify(value);
    case 'bigint':
      return value.toString();
    case 'object':
      return value instanceof LosslessNumber ? value.toString() : Array.isArray(value) ? array(value) : object(value as Record<string, unknown>);
    default:
      throw new TypeError(`a ${typeof value} has no JSON form`);
  }
}

// Plain loops and string appends: this runs for every accepted log, and showed in the ingest profile.
function array(items: unknown[]): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) text += (i ? ',' : '') + canonicalJson(items[i]);
  return `${text}]`;
}

function object(record: Record<string, unknown>): string {
  const keys = Object.keys(record).sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
    first = false;
  }
  return `${text}}`;
}
