/** Sizes the witness takes: a tree size must fit a signed 64-bit integer, as most tlog implementations store it. */
export const MAX_TREE_SIZE = 2n ** 63n - 1n;

const DECIMAL = /^(?:0|[1-9][0-9]*)$/;

/** An ASCII decimal without sign or leading zeros, at most `max`; undefined when it is not one. Length first, so a megabyte of digits costs nothing. */
export function parseSize(text: string, max: bigint = MAX_TREE_SIZE): bigint | undefined {
  if (text.length > max.toString().length || !DECIMAL.test(text)) return undefined;
  const value = BigInt(text);
  return value <= max ? value : undefined;
}

// Buffer.from(…, 'base64') skips junk and takes base64url; the regular expression and the round trip keep one spelling
// per hash (no missing padding, no stray bits in it).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Canonical standard base64 (RFC 4648 §4) of exactly `length` bytes, or undefined. */
export function parseHash(text: string, length = 32): Buffer | undefined {
  if (!BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === length && bytes.toString('base64') === text ? bytes : undefined;
}
