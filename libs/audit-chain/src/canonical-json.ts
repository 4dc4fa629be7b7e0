import { LosslessNumber } from '#libs/common';

/**
 * The canonical JSON text of a value, the form the audit chain hashes: object keys sorted by UTF-16 code units (as
 * JavaScript sorts them), no whitespace, strings escaped as JSON.stringify escapes them, and numbers written as the
 * lossless parser keeps them (a JS number as JSON.stringify writes it, a bigint as its digits, any other number with
 * the digits it was sent with). Parsing the text back with libs/common's parseJson and canonicalising again gives the
 * same text, which is what lets `audit:verify` recompute every hash from an export.
 *
 * Fast path: a copy with every object's keys inserted in sorted order, written by the native JSON.stringify (which
 * keeps insertion order). Values it would write differently (bigint, LosslessNumber, non-finite numbers, anything not
 * plain JSON, keys an object would not keep in insertion order) go to {@link canonicalJsonSlowly}, the reference the
 * fast path is tested against.
 */
export function canonicalJson(value: unknown): string {
  const sorted = sortedCopy(value);
  return sorted === SLOW ? canonicalJsonSlowly(value) : JSON.stringify(sorted);
}

const SLOW = Symbol('slow');

/** The value with its objects' keys in sorted order (arrays copied only when they hold objects), or SLOW. */
function sortedCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : SLOW;
    case 'object':
      if (value === null) return value;
      if (Array.isArray(value)) return sortedArray(value);
      return Object.getPrototypeOf(value) === Object.prototype ? sortedObject(value as Record<string, unknown>) : SLOW;
    default:
      return SLOW;
  }
}

function sortedArray(items: unknown[]): unknown {
  let copy: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const sorted = sortedCopy(item);
    if (sorted === SLOW) return SLOW;
    if (sorted !== item) (copy ??= items.slice())[i] = sorted;
  }
  return copy ?? items;
}

function sortedObject(record: Record<string, unknown>): unknown {
  const copy: Record<string, unknown> = {};
  for (const key of sortedKeys(record)) {
    // Objects list integer-like keys first, whatever the insertion order; assigning __proto__ sets the prototype.
    const first = key.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39) || key === '__proto__') return SLOW;
    const item = record[key];
    if (item === undefined) continue;
    const sorted = sortedCopy(item);
    if (sorted === SLOW) return SLOW;
    copy[key] = sorted;
  }
  return copy;
}

/**
 * The object's keys in the order Array.prototype.sort gives strings (UTF-16 code units). Objects in logs have a handful
 * of keys, which insertion sort orders several times faster than sort(), and without sort()'s temporary arrays (a
 * sixth of batch ingest's allocations).
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > key; j--) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
  return keys;
}

/** canonicalJson by walking the value and writing every token in JavaScript: any JSON value, at a third less speed. */
export function canonicalJsonSlowly(value: unknown): string {
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

function array(items: unknown[]): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) text += (i ? ',' : '') + canonicalJsonSlowly(items[i]);
  return `${text}]`;
}

function object(record: Record<string, unknown>): string {
  const keys = Object.keys(record).sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJsonSlowly(item)}`;
    first = false;
  }
  return `${text}}`;
}
