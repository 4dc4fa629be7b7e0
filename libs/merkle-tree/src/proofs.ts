import { MerkleArgumentError } from './errors.js';
import { EMPTY_ROOT, foldRight } from './hashing.js';
import { splitPoint, toCount } from './sizes.js';
import { type HashReader, type NodeRef, readChecked, subtreeRefs } from './stored.js';

// A proof is planned first as groups of stored refs, one group per proof hash (a subtree that is not complete is a
// group of the complete subtrees that make it up), then read in one batch and folded: Go tlog's ProveRecord and
// ProveTree, with the index planning and the hashing kept in one place.
type Plan = NodeRef[][];

/** RFC 9162 §2.1.3.1 PATH(m, D[lo:hi]), bottom hash first: the siblings on the way from the root down to leaf m. */
function inclusionPlan(lo: bigint, hi: bigint, m: bigint): Plan {
  if (hi - lo === 1n) return [];
  const k = splitPoint(hi - lo);
  if (m < lo + k) return [...inclusionPlan(lo, lo + k, m), subtreeRefs(lo + k, hi)];
  return [...inclusionPlan(lo + k, hi, m), subtreeRefs(lo, lo + k)];
}

/**
 * RFC 9162 §2.1.4.1 SUBPROOF(m, D[lo:hi], b), with b true exactly when lo is 0: the old tree's root is then the
 * verifier's own and is left out.
 */
function consistencyPlan(lo: bigint, hi: bigint, m: bigint): Plan {
  if (m === hi) return lo === 0n ? [] : [subtreeRefs(lo, hi)];
  const k = splitPoint(hi - lo);
  if (m <= lo + k) return [...consistencyPlan(lo, lo + k, m), subtreeRefs(lo + k, hi)];
  return [...consistencyPlan(lo + k, hi, m), subtreeRefs(lo, lo + k)];
}

async function build(plan: Plan, read: HashReader): Promise<Buffer[]> {
  const hashes = await readChecked(read, plan.flat());
  const proof: Buffer[] = [];
  let next = 0;
  for (const group of plan) {
    proof.push(foldRight(hashes.slice(next, next + group.length)));
    next += group.length;
  }
  return proof;
}

/** Root of the tree of the first `size` leaves, from at most log2(size) + 1 stored hashes in one read. */
export async function treeRoot(size: bigint | number, read: HashReader): Promise<Buffer> {
  const n = toCount(size, 'size');
  if (n === 0n) return Buffer.from(EMPTY_ROOT);
  const [root] = await build([subtreeRefs(0n, n)], read);
  return root;
}

/** Inclusion proof (audit path) of leaf `index` in the tree of `size` leaves: what Go's tlog.ProveRecord returns. */
export async function inclusionProof(index: bigint | number, size: bigint | number, read: HashReader): Promise<Buffer[]> {
  const i = toCount(index, 'index');
  const n = toCount(size, 'size');
  if (i >= n) throw new MerkleArgumentError(`index must be below size (0 <= index < size), got index ${i}, size ${n}`);
  return build(inclusionPlan(0n, n, i), read);
}

/**
 * Consistency proof that the tree of `m` leaves is a prefix of the tree of `n` leaves: what Go's tlog.ProveTree
 * returns; empty when m = n. A proof from the empty tree means nothing (RFC 9162 asks 0 < m), so m = 0 is refused.
 */
export async function consistencyProof(m: bigint | number, n: bigint | number, read: HashReader): Promise<Buffer[]> {
  const first = toCount(m, 'm');
  const second = toCount(n, 'n');
  if (first === 0n || first > second) throw new MerkleArgumentError(`sizes must satisfy 0 < m <= n, got m ${first}, n ${second}`);
  return build(consistencyPlan(0n, second, first), read);
}
