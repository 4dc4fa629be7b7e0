import { MerkleArgumentError } from './errors.js';
import { EMPTY_ROOT, foldRight, HASH_SIZE, nodeHash } from './hashing.js';
import { MAX_SIZE, popCount, toCount, trailingOnes } from './sizes.js';

/**
 * The hashes of the maximal complete subtrees of a tree (its compact range), left to right, so largest first: one per
 * set bit of the size, at most 64. With the size it is all an append needs, so ingest never reads old rows.
 */
export type Frontier = readonly Buffer[];

export interface Appended {
  /** Hashes to store in the new leaf's row: position L is the complete subtree of level L that ends at this leaf. */
  stored: Buffer[];
  /** Frontier of the tree one leaf larger. */
  frontier: Buffer[];
}

function checkHash(hash: unknown, name: string): asserts hash is Buffer {
  if (!Buffer.isBuffer(hash) || hash.length !== HASH_SIZE) throw new MerkleArgumentError(`${name} must be a ${HASH_SIZE}-byte Buffer`);
}

function checkFrontier(frontier: Frontier, size: bigint): void {
  if (!Array.isArray(frontier) || frontier.length !== popCount(size)) {
    throw new MerkleArgumentError(`a frontier of a tree of size ${size} must hold ${popCount(size)} hashes, one per set bit of the size`);
  }
  frontier.forEach((hash, i) => checkHash(hash, `frontier[${i}]`));
}

/**
 * Appends leaf number `size` (0-based) to the tree of `size` leaves. Each trailing 1-bit of `size` is a complete
 * subtree at the frontier's right end that the new leaf pairs up with, so O(log n) hashing and no reads.
 */
export function append(frontier: Frontier, size: bigint | number, leafHash: Buffer): Appended {
  const n = toCount(size, 'size');
  if (n >= MAX_SIZE) throw new MerkleArgumentError('size must be below 2^64 - 1 to append a leaf');
  checkFrontier(frontier, n);
  checkHash(leafHash, 'leafHash');
  const next = frontier.slice();
  const stored = [leafHash];
  let hash = leafHash;
  for (let level = 1; level <= trailingOnes(n); level++) {
    hash = nodeHash(next.pop() as Buffer, hash);
    stored.push(hash);
  }
  next.push(hash);
  return { stored, frontier: next };
}

/** Root of the tree whose frontier this is (RFC 9162's MTH splits off the largest complete subtree first). */
export function rootOf(frontier: Frontier, size: bigint | number): Buffer {
  const n = toCount(size, 'size');
  checkFrontier(frontier, n);
  return n === 0n ? Buffer.from(EMPTY_ROOT) : foldRight(frontier);
}

/** The frontier as its hashes concatenated; the size, stored beside it, says which levels they are. */
export function serializeFrontier(frontier: Frontier, size: bigint | number): Buffer {
  checkFrontier(frontier, toCount(size, 'size'));
  return Buffer.concat(frontier);
}

/** Strict inverse of serializeFrontier: exactly 32 bytes per set bit of the size, nothing more or less. */
export function parseFrontier(bytes: Uint8Array, size: bigint | number): Buffer[] {
  const count = popCount(toCount(size, 'size'));
  if (!(bytes instanceof Uint8Array) || bytes.length !== count * HASH_SIZE) {
    throw new MerkleArgumentError(
      `a serialized frontier of a tree of size ${String(size)} must be ${count * HASH_SIZE} bytes (${count} hashes), got ${bytes?.length}`,
    );
  }
  const hashes: Buffer[] = [];
  for (let i = 0; i < count; i++) hashes.push(Buffer.from(bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE)));
  return hashes;
}
