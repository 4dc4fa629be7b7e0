import { LosslessNumber } from '#libs/common';

/** The largest exchange ID: a signed 64-bit Long. */
export const MAX_EXCHANGE_ID = 9_223_372_036_854_775_807n;

/**
 * Reads an ID an agent sent without loss: a JSON integer of any size (a number or, beyond 2^53, a bigint from the
 * lossless body parser) or a string of decimal digits. Returns its canonical digits, or what is wrong with it.
 */
export function readExchangeId(value: unknown, path: string, min = 1n): { digits: string } | { error: string } {
  const rule = `${path} must be a JSON integer or a string of decimal digits from ${min} to ${MAX_EXCHANGE_ID}`;
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^\d{1,40}$/.test(value)) n = BigInt(value);
  // A fraction or exponent (kept as a LosslessNumber) is a typo, not an ID; an unsafe number has lost digits already.
  else if (typeof value === 'number' || value instanceof LosslessNumber) return { error: `${rule} (no fraction or exponent)` };
  else return { error: rule };
  if (n < min || n > MAX_EXCHANGE_ID) return { error: rule };
  return { digits: n.toString() };
}

/** The canonical digits of an ID that passed validation. */
export function exchangeId(value: unknown): string {
  const read = readExchangeId(value, 'id', 0n);
  if ('error' in read) throw new TypeError(read.error);
  return read.digits;
}
