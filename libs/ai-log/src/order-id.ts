import { LosslessNumber } from '#libs/common';

/** The largest WEEX order ID: a signed 64-bit Long. */
export const MAX_ORDER_ID = 9_223_372_036_854_775_807n;

/**
 * Reads an agent's orderId without loss: a JSON integer of any size (parsed as number or bigint) or a string of
 * decimal digits. Returns the canonical decimal text, or an error message naming the rule that was broken.
 */
export function readOrderId(value: unknown): { digits: string } | { error: string } {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^\d+$/.test(value)) n = BigInt(value);
  // -0 is the one integer literal the parser keeps as a LosslessNumber (as a number it would print as 0).
  else if (value instanceof LosslessNumber && /^-?\d+$/.test(value.value)) n = BigInt(value.value);
  else if (typeof value === 'string') return { error: 'orderId as a string must contain only decimal digits' };
  else if (typeof value === 'number' || value instanceof LosslessNumber) {
    return { error: 'orderId must be an integer (no fraction or exponent)' };
  } else return { error: 'orderId must be a JSON integer or a string of decimal digits' };
  if (n < 1n) return { error: 'orderId must be a positive integer' };
  if (n > MAX_ORDER_ID) return { error: `orderId must be at most ${MAX_ORDER_ID} (a 64-bit exchange order ID)` };
  return { digits: n.toString() };
}
