import { MerkleReaderError } from './errors.js';
import { HASH_SIZE } from './hashing.js';
import { bitLength } from './sizes.js';

/** The complete subtree at `level` covering leaves [index·2^level, (index+1)·2^level); level 0 is a leaf. */
export interface NodeRef {
  readonly level: number;
  readonly index: bigint;
}

/**
 * Reads stored subtree hashes, one per ref and in the refs' order; proofs ask for all they need in one call so the
 * database answers in one round trip. Only complete subtrees are ever asked for: those are what ingest stored.
 */
export type HashReader = (refs: ReadonlyArray<NodeRef>) => Promise<Buffer[]>;

/**
 * Where a complete subtree's hash is stored: in the row of its last leaf, at position `level` of that row's hashes
 * (the row of leaf i holds levels 0..t, t the number of trailing 1-bits of i).
 */
export function storedAt(ref: NodeRef): { leafIndex: bigint; level: number } {
  return { leafIndex: ((ref.index + 1n) << BigInt(ref.level)) - 1n, level: ref.level };
}

/**
 * The complete subtrees that make up leaves [lo, hi), left to right, largest first (Go tlog's subTreeIndex): a right
 * edge that is not complete is rebuilt from at most log2(hi − lo) + 1 stored hashes. lo must be aligned as RFC 9162's
 * splits leave it.
 */
export function subtreeRefs(lo: bigint, hi: bigint): NodeRef[] {
  const refs: NodeRef[] = [];
  while (lo < hi) {
    const level = bitLength(hi - lo) - 1;
    const width = 1n << BigInt(level);
    if (lo % width !== 0n) throw new Error(`merkle-tree: leaves [${lo}, ${hi}) do not start on a subtree boundary`);
    refs.push({ level, index: lo >> BigInt(level) });
    lo += width;
  }
  return refs;
}

/** One batched read, checked: a short answer or a hash of the wrong size is the storage's fault and must not become a proof. */
export async function readChecked(read: HashReader, refs: ReadonlyArray<NodeRef>): Promise<Buffer[]> {
  if (refs.length === 0) return [];
  const hashes = await read(refs);
  if (!Array.isArray(hashes) || hashes.length !== refs.length) {
    throw new MerkleReaderError(
      `HashReader must return one hash per ref: asked for ${refs.length}, got ${Array.isArray(hashes) ? hashes.length : typeof hashes}`,
    );
  }
  hashes.forEach((hash, i) => {
    if (!Buffer.isBuffer(hash) || hash.length !== HASH_SIZE) {
      throw new MerkleReaderError(`HashReader returned a hash that is not ${HASH_SIZE} bytes for level ${refs[i].level}, index ${refs[i].index}`);
    }
  });
  return hashes;
}
