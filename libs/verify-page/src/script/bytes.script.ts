/**
 * Part of the verifier page's one inline script (see verify-script.ts): strict UTF-8, canonical base64, decimals and
 * SHA-256 through WebCrypto. Plain browser JavaScript kept in a String.raw template (no backtick, no dollar-brace),
 * so that the unit test runs in Node the very bytes the browser runs.
 */
export const BYTES_SCRIPT = String.raw`
const MAX_NOTE_BYTES = 1048576;
// The header, an extra line of plausible size and 64 hashes fit in a few kilobytes beyond the checkpoint's limit.
const MAX_PROOF_BYTES = 2 * MAX_NOTE_BYTES;
const MAX_SIGNATURES = 100;
const MAX_PROOF_HASHES = 64;
const HASH_SIZE = 32;
const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MAX = (1n << 63n) - 1n;

/** A proof that does not verify: a reason for the judge, never a crash. */
class Refusal extends Error {}
function refuse(reason) {
  throw new Refusal(reason);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// The entry is read as the reference reads it (Buffer's toString): bad sequences become U+FFFD, a BOM stays.
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const utf8Encoder = new TextEncoder();
const utf8 = (text) => utf8Encoder.encode(text);

function concatBytes(parts) {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const readUint32 = (bytes, at) => ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
function readUint64(bytes, at) {
  return (BigInt(readUint32(bytes, at)) << 32n) | BigInt(readUint32(bytes, at + 4));
}
const hex8 = (n) => n.toString(16).padStart(8, '0');

// Standard base64 with padding (RFC 4648 section 4), canonical only: zero padding bits, so each value has one spelling.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SEXTETS = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) SEXTETS['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

/** The bytes of canonical standard base64, or undefined. */
function decodeBase64(text) {
  if (!BASE64.test(text)) return undefined;
  const end = text.length - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
  const out = new Uint8Array(Math.floor((end * 6) / 8));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < end; i++) {
    acc = ((acc << 6) | SEXTETS[text.charCodeAt(i)]) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (acc >> bits) & 0xff;
    }
  }
  return (acc & ((1 << bits) - 1)) === 0 ? out : undefined;
}

// ASCII digits, no sign, no leading zero; the length is checked before BigInt, so a megabyte of digits costs nothing.
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
function parseDecimal(text, max) {
  if (text.length > max.toString().length || !DECIMAL.test(text)) return undefined;
  const value = BigInt(text);
  return value <= max ? value : undefined;
}

async function sha256(...parts) {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', concatBytes(parts)));
}
`;
