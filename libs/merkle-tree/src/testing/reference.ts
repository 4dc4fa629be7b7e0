import { append } from '../frontier.js';
import { EMPTY_ROOT, nodeHash } from '../hashing.js';
import type { HashReader, NodeRef } from '../stored.js';
import { storedAt } from '../stored.js';

// RFC 9162 §2.1 written out as the recursive definitions over the leaf hashes, slow and plain, to check the library
// against; and an in-memory store laid out as ingest will store rows.

/** Largest power of two smaller than n (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]) of RFC 9162 §2.1.1. */
export function naiveRoot(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return EMPTY_ROOT;
  if (leaves.length === 1) return leaves[0];
  const k = split(leaves.length);
  return nodeHash(naiveRoot(leaves.slice(0, k)), naiveRoot(leaves.slice(k)));
}

/** PATH(m, D[n]) of RFC 9162 §2.1.3.1. */
export function naivePath(m: number, leaves: readonly Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  if (m < k) return [...naivePath(m, leaves.slice(0, k)), naiveRoot(leaves.slice(k))];
  return [...naivePath(m - k, leaves.slice(k)), naiveRoot(leaves.slice(0, k))];
}

/** SUBPROOF(m, D[n], b) of RFC 9162 §2.1.4.1; PROOF(m, D[n]) is SUBPROOF(m, D[n], true). */
export function naiveSubproof(m: number, leaves: readonly Buffer[], b: boolean): Buffer[] {
  const n = leaves.length;
  if (m === n) return b ? [] : [naiveRoot(leaves)];
  const k = split(n);
  if (m <= k) return [...naiveSubproof(m, leaves.slice(0, k), b), naiveRoot(leaves.slice(k))];
  return [...naiveSubproof(m - k, leaves.slice(k), false), naiveRoot(leaves.slice(0, k))];
}

/** Rows as ingest will keep them (row i = hashes of levels 0..t for leaf i), a frontier, and a reader that counts. */
export class MemoryTree {
  readonly rows: Buffer[][] = [];
  frontier: Buffer[] = [];
  readonly calls: NodeRef[][] = [];

  append(leafHash: Buffer): Buffer[] {
    const { stored, frontier } = append(this.frontier, this.rows.length, leafHash);
    this.rows.push(stored);
    this.frontier = frontier;
    return stored;
  }

  readonly read: HashReader = async (refs) => {
    this.calls.push([...refs]);
    return refs.map((ref) => {
      const { leafIndex, level } = storedAt(ref);
      const hash = this.rows[Number(leafIndex)]?.[level];
      if (hash === undefined) throw new Error(`no stored hash at level ${ref.level}, index ${ref.index}`);
      return hash;
    });
  };
}
