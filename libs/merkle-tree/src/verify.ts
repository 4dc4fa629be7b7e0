import { HASH_SIZE, nodeHash } from './hashing.js';
import { toCount } from './sizes.js';

/** Outcome of checking a proof: a proof handed in by someone else is data, so a bad one is an answer, not an exception. */
export type Verification = { ok: true } | { ok: false; reason: string };

const OK: Verification = { ok: true };

function fail(reason: string): Verification {
  return { ok: false, reason };
}

function badHash(hash: unknown): boolean {
  return !(hash instanceof Uint8Array) || hash.length !== HASH_SIZE;
}

function badProofHash(proof: readonly Uint8Array[]): string | null {
  const at = proof.findIndex(badHash);
  return at === -1 ? null : `proof[${at}] is not ${HASH_SIZE} bytes`;
}

/** Shifts fn and sn right together until fn's lowest bit is set or fn is 0 (RFC 9162's "right-shift equally"). */
function shiftPastZeros(fn: bigint, sn: bigint): [bigint, bigint] {
  while (fn !== 0n && (fn & 1n) === 0n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  return [fn, sn];
}

/** RFC 9162 §2.1.3.2: does `proof` show the leaf with hash `leafHash` at `index` in the tree of `size` leaves with `root`? */
export function verifyInclusion(
  leafHash: Uint8Array,
  index: bigint | number,
  size: bigint | number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): Verification {
  const i = toCount(index, 'index');
  const n = toCount(size, 'size');
  if (i >= n) return fail(`index ${i} is not below size ${n}`);
  if (badHash(leafHash)) return fail(`leaf hash is not ${HASH_SIZE} bytes`);
  if (badHash(root)) return fail(`root is not ${HASH_SIZE} bytes`);
  const badEntry = badProofHash(proof);
  if (badEntry !== null) return fail(badEntry);

  let fn = i;
  let sn = n - 1n;
  let r: Buffer = Buffer.from(leafHash);
  for (const p of proof) {
    if (sn === 0n) return fail(`proof is too long: ${proof.length} hashes`);
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r);
      if ((fn & 1n) === 0n) [fn, sn] = shiftPastZeros(fn, sn);
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  if (sn !== 0n) return fail(`proof is too short: ${proof.length} hashes`);
  return r.equals(root) ? OK : fail('root mismatch: the proof leads to another root');
}

/** RFC 9162 §2.1.4.2: does `proof` show the tree of `m` leaves with `rootM` is a prefix of the tree of `n` leaves with `rootN`? */
export function verifyConsistency(m: bigint | number, n: bigint | number, proof: readonly Uint8Array[], rootM: Uint8Array, rootN: Uint8Array): Verification {
  const first = toCount(m, 'm');
  const second = toCount(n, 'n');
  if (first > second) return fail(`m ${first} is greater than n ${second}`);
  if (first === 0n) return fail('m is 0: a consistency proof from the empty tree means nothing');
  if (badHash(rootM)) return fail(`root of the tree of size m is not ${HASH_SIZE} bytes`);
  if (badHash(rootN)) return fail(`root of the tree of size n is not ${HASH_SIZE} bytes`);
  const badEntry = badProofHash(proof);
  if (badEntry !== null) return fail(badEntry);
  // The RFC's algorithm starts at step 1 with 0 < m < n; for m = n the proof is empty and the roots are the same.
  if (first === second) {
    if (proof.length !== 0) return fail(`proof is too long: m = n needs an empty proof, got ${proof.length} hashes`);
    return Buffer.from(rootM).equals(rootN) ? OK : fail('root mismatch: m = n but the roots differ');
  }
  if (proof.length === 0) return fail('proof is empty: m < n needs at least one hash');

  // When m is a power of two the old root is a node of the new tree, so the proof leaves it out.
  const path = (first & (first - 1n)) === 0n ? [rootM, ...proof] : [...proof];
  let fn = first - 1n;
  let sn = second - 1n;
  while ((fn & 1n) === 1n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  let fr: Buffer = Buffer.from(path[0]);
  let sr: Buffer = Buffer.from(path[0]);
  for (const c of path.slice(1)) {
    if (sn === 0n) return fail(`proof is too long: ${proof.length} hashes`);
    if ((fn & 1n) === 1n || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if ((fn & 1n) === 0n) [fn, sn] = shiftPastZeros(fn, sn);
    } else {
      sr = nodeHash(sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  if (sn !== 0n) return fail(`proof is too short: ${proof.length} hashes`);
  if (!fr.equals(rootM)) return fail('root mismatch: the proof leads to another root for the tree of size m');
  return sr.equals(rootN) ? OK : fail('root mismatch: the proof leads to another root for the tree of size n');
}
