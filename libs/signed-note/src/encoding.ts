import { SignedNoteError } from './errors.js';

// Standard base64 with padding (RFC 4648 §4). Buffer.from(…, 'base64') skips junk and accepts base64url, so every
// decode goes through this check; the re-encoding comparison also rejects non-zero padding bits, which would otherwise
// let one signature be written several ways.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function isCanonicalBase64(text: string): boolean {
  return BASE64.test(text) && Buffer.from(text, 'base64').toString('base64') === text;
}

/** Decodes canonical standard base64, or throws a `bad-base64` error naming `what`. */
export function decodeBase64(text: string, what: string): Buffer {
  if (!isCanonicalBase64(text)) throw new SignedNoteError('bad-base64', `${what} is not canonical standard base64`);
  return Buffer.from(text, 'base64');
}

export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

// Decimal numbers in checkpoints, cosignatures and proofs: ASCII digits, no sign, no leading zero. Length is checked
// before BigInt so a megabyte of digits costs nothing.
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;

/** Parses an unsigned decimal no greater than `max`; undefined when the text is not one. */
export function parseDecimal(text: string, max: bigint): bigint | undefined {
  if (text.length > max.toString().length || !DECIMAL.test(text)) return undefined;
  const value = BigInt(text);
  return value <= max ? value : undefined;
}

export const UINT64_MAX = 2n ** 64n - 1n;
export const INT64_MAX = 2n ** 63n - 1n;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes to text, rejecting anything that is not valid UTF-8 (overlong forms and surrogates included). */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new SignedNoteError('malformed-note', `${what} is not valid UTF-8`);
  }
}

/** Text as the bytes that are signed; lone surrogates have no UTF-8 form, so they are refused, not replaced. */
export function encodeUtf8(text: string, what: string): Buffer {
  if (!text.isWellFormed()) throw new SignedNoteError('malformed-note', `${what} is not valid UTF-8 (lone surrogate)`);
  return Buffer.from(text, 'utf8');
}
