import { MerkleArgumentError } from './errors.js';

/** Tree sizes and leaf indexes are unsigned 64-bit, as in Go's tlog and transparency-dev/merkle. */
export const MAX_SIZE = (1n << 64n) - 1n;

/** A tree size or leaf index as a bigint: a safe integer number or a bigint, from 0 to 2^64 − 1. */
export function toCount(value: bigint | number, name: string): bigint {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new MerkleArgumentError(`${name} must be a non-negative safe integer, got ${value}`);
    return BigInt(value);
  }
  if (typeof value !== 'bigint' || value < 0n || value > MAX_SIZE)
    throw new MerkleArgumentError(`${name} must be an integer from 0 to 2^64 - 1, got ${String(value)}`);
  return value;
}

/** Number of bits needed to write n (0 for 0). */
export function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** Number of set bits: a tree of size n has one maximal complete subtree per set bit. */
export function popCount(n: bigint): number {
  let count = 0;
  for (const digit of n.toString(2)) if (digit === '1') count++;
  return count;
}

/** Number of trailing 1-bits: leaf i completes the subtrees of levels 1..trailingOnes(i). */
export function trailingOnes(n: bigint): number {
  let count = 0;
  while ((n & 1n) === 1n) {
    count++;
    n >>= 1n;
  }
  return count;
}

/** RFC 9162's split point k: the largest power of two smaller than n (n ≥ 2). */
export function splitPoint(n: bigint): bigint {
  return 1n << BigInt(bitLength(n - 1n) - 1);
}
