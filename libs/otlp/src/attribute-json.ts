import { stringifyJson } from '#libs/common';
import type { AttributeValue } from './otlp-span.js';

/**
 * An attribute's value as JSON text: int64 digit-exact (a bigint is written as a bare integer), bytes as base64, a
 * kvlist as an object, a double that JSON cannot hold (NaN, ±Infinity) as its name in a string.
 */
export function attributeJson(value: AttributeValue): string {
  return stringifyJson(plain(value));
}

function plain(value: AttributeValue): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}

/** The UTF-8 bytes a value takes (its strings and bytes; numbers and booleans count 8), stopping once past `limit`. */
export function attributeBytes(value: AttributeValue, limit: number): number {
  if (typeof value === 'string') return value.length * 3 <= limit ? value.length : Buffer.byteLength(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Map || Array.isArray(value)) {
    let total = 0;
    for (const [key, item] of value instanceof Map ? value : value.entries()) {
      total += (typeof key === 'string' ? key.length : 0) + attributeBytes(item, limit - total);
      if (total > limit) break;
    }
    return total;
  }
  return 8;
}
