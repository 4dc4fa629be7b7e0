/**
 * Decimal strings as bigint units of 1e-8, so generated amounts add up exactly (a trade's qty sums to its order's
 * executedQty to the last digit). Every price, quantity and fee the generator makes has at most 8 decimals.
 */
const SCALE = 8;
const ONE = 10n ** BigInt(SCALE);

/** "96500.1" → 9650010000000n; digits past the 8th decimal are dropped. */
export function toUnits(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a decimal number`);
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(whole) * ONE + BigInt(fraction.slice(0, SCALE).padEnd(SCALE, '0'));
  return sign === '-' ? -units : units;
}

/** 9650010000000n → "96500.1": no exponent, no trailing zeros. */
export function fromUnits(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  const fraction = (abs % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${sign}${abs / ONE}${fraction ? `.${fraction}` : ''}`;
}

export function mulUnits(a: bigint, b: bigint): bigint {
  return (a * b) / ONE;
}

export function divUnits(a: bigint, b: bigint): bigint {
  return (a * ONE) / b;
}

/** Rounds toward zero to a multiple of `step` (a tick or lot size, in units). */
export function roundToStep(units: bigint, step: bigint): bigint {
  return (units / step) * step;
}
