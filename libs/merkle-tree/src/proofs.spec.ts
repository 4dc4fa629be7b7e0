import { MerkleArgumentError, MerkleReaderError } from './errors.js';
import { leafHash } from './hashing.js';
import { consistencyProof, inclusionProof, treeRoot } from './proofs.js';
import type { HashReader, NodeRef } from './stored.js';
import { MemoryTree, naivePath, naiveRoot, naiveSubproof } from './testing/reference.js';
import { verifyConsistency, verifyInclusion } from './verify.js';

const MAX = 64;

function buildTree(size: number): { tree: MemoryTree; leaves: Buffer[] } {
  const tree = new MemoryTree();
  const leaves: Buffer[] = [];
  for (let i = 0; i < size; i++) {
    leaves.push(leafHash(Buffer.from(`log ${i}`)));
    tree.append(leaves[i]);
  }
  return { tree, leaves };
}

function flipped(proof: Buffer[], at: number): Buffer[] {
  return proof.map((hash, i) => (i === at ? Buffer.from(hash.map((byte, j) => (j === 0 ? byte ^ 1 : byte))) : hash));
}

/** Hashes out of nothing, so proofs of trees of 2^40 leaves can be planned; it checks each ref is a complete subtree of the tree. */
function countingReader(size: bigint): { read: HashReader; refs: NodeRef[]; calls: number } {
  const state = { refs: [] as NodeRef[], calls: 0, read: (async () => []) as HashReader };
  state.read = async (refs) => {
    state.calls++;
    for (const ref of refs) {
      if (!Number.isInteger(ref.level) || ref.level < 0 || ref.index < 0n || (ref.index + 1n) << BigInt(ref.level) > size) {
        throw new Error(`ref outside the tree: level ${ref.level}, index ${ref.index}`);
      }
    }
    state.refs.push(...refs);
    return refs.map(() => Buffer.alloc(32));
  };
  return state;
}

const ceilLog2 = (n: bigint) => (n <= 1n ? 0 : (n - 1n).toString(2).length);
const bitLength = (n: bigint) => (n === 0n ? 0 : n.toString(2).length);
const popCount = (n: bigint) => n.toString(2).replaceAll('0', '').length;

/** Length of an inclusion proof as transparency-dev/merkle's decompInclProof counts it: the inner path, then the border. */
function inclusionLength(index: bigint, size: bigint): number {
  const inner = bitLength(index ^ (size - 1n));
  return inner + popCount(index >> BigInt(inner));
}

describe('proofs from stored subtrees', () => {
  const { tree, leaves } = buildTree(MAX);

  it('give the naive MTH root of every size, in one read', async () => {
    for (let n = 0; n <= MAX; n++) {
      tree.calls.length = 0;
      expect((await treeRoot(n, tree.read)).equals(naiveRoot(leaves.slice(0, n)))).toBe(true);
      expect(tree.calls.length).toBe(n === 0 ? 0 : 1);
    }
  });

  it('give RFC 9162 PATH for every (index, size) up to 64, in one read, that verifies and fails when tampered', async () => {
    for (let n = 1; n <= MAX; n++) {
      const root = naiveRoot(leaves.slice(0, n));
      for (let i = 0; i < n; i++) {
        tree.calls.length = 0;
        const proof = await inclusionProof(i, n, tree.read);
        expect(proof).toEqual(naivePath(i, leaves.slice(0, n)));
        expect(tree.calls.length).toBeLessThanOrEqual(1);
        expect(verifyInclusion(leaves[i], i, n, proof, root)).toEqual({ ok: true });
        for (let k = 0; k < proof.length; k++) expect(verifyInclusion(leaves[i], i, n, flipped(proof, k), root)).toMatchObject({ ok: false });
        expect(verifyInclusion(leaves[(i + 1) % n], i, n, proof, root).ok).toBe(n === 1);
        expect(verifyInclusion(leaves[i], i, n, [...proof, root], root)).toMatchObject({ ok: false, reason: expect.stringMatching(/too long|mismatch/) });
        if (proof.length > 0) expect(verifyInclusion(leaves[i], i, n, proof.slice(1), root)).toMatchObject({ ok: false });
        if (n > 1) expect(verifyInclusion(leaves[i], (i + 1) % n, n, proof, root)).toMatchObject({ ok: false });
      }
    }
  });

  it('give RFC 9162 PROOF for every (m, n) up to 64, in one read, that verifies and fails when tampered', async () => {
    for (let n = 1; n <= MAX; n++) {
      const rootN = naiveRoot(leaves.slice(0, n));
      for (let m = 1; m <= n; m++) {
        const rootM = naiveRoot(leaves.slice(0, m));
        tree.calls.length = 0;
        const proof = await consistencyProof(m, n, tree.read);
        expect(proof).toEqual(naiveSubproof(m, leaves.slice(0, n), true));
        expect(tree.calls.length).toBeLessThanOrEqual(1);
        expect(verifyConsistency(m, n, proof, rootM, rootN)).toEqual({ ok: true });
        for (let k = 0; k < proof.length; k++) expect(verifyConsistency(m, n, flipped(proof, k), rootM, rootN)).toMatchObject({ ok: false });
        expect(verifyConsistency(m, n, [...proof, rootN], rootM, rootN)).toMatchObject({ ok: false });
        if (proof.length > 0) expect(verifyConsistency(m, n, proof.slice(0, -1), rootM, rootN)).toMatchObject({ ok: false });
        if (m < n) expect(verifyConsistency(m, n, proof, rootN, rootN)).toMatchObject({ ok: false });
        if (m < n) expect(verifyConsistency(m, n, proof, rootM, rootM)).toMatchObject({ ok: false });
      }
    }
  });

  it('read at most 2·⌈log2 n⌉ + 2 stored hashes, all complete subtrees inside the tree, for n up to 2^40', async () => {
    const sizes = new Set<bigint>([1n, 2n, 3n]);
    for (let b = 2n; b <= 40n; b++) for (const d of [-1n, 0n, 1n]) sizes.add((1n << b) + d);
    for (let x = 0x9e3779b97f4a7c15n, i = 0; i < 40; i++) {
      x = (x * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
      sizes.add((x % (1n << 40n)) + 1n);
    }
    for (const n of sizes) {
      const bound = 2 * ceilLog2(n) + 2;
      const picks = new Set<bigint>([0n, 1n % n, n / 2n, n - 2n < 0n ? 0n : n - 2n, n - 1n, (n * 5n) / 7n]);
      for (const i of picks) {
        const inclusion = countingReader(n);
        const proof = await inclusionProof(i, n, inclusion.read);
        expect(inclusion.refs.length).toBeLessThanOrEqual(bound);
        expect(inclusion.calls).toBeLessThanOrEqual(1);
        expect(proof.length).toBe(inclusionLength(i, n));
        const m = i + 1n;
        const consistency = countingReader(n);
        await consistencyProof(m, n, consistency.read);
        expect(consistency.refs.length).toBeLessThanOrEqual(bound);
        expect(consistency.calls).toBeLessThanOrEqual(1);
      }
      const root = countingReader(n);
      await treeRoot(n, root.read);
      expect(root.refs.length).toBeLessThanOrEqual(ceilLog2(n) + 1);
    }
  });

  it('work past 2^53 leaves with bigint sizes', async () => {
    const n = (1n << 60n) + 12345n;
    const reader = countingReader(n);
    expect((await consistencyProof(2n ** 53n + 1n, n, reader.read)).length).toBeGreaterThan(0);
    const safe = Number.MAX_SAFE_INTEGER;
    expect(await inclusionProof(safe - 1, safe, countingReader(BigInt(safe)).read)).toHaveLength(inclusionLength(BigInt(safe - 1), BigInt(safe)));
    expect(await inclusionProof(n - 1n, n, reader.read)).toHaveLength(inclusionLength(n - 1n, n));
  });

  it('refuse arguments that break a rule, naming it', async () => {
    await expect(inclusionProof(3, 3, tree.read)).rejects.toThrow(/index must be below size \(0 <= index < size\)/);
    await expect(inclusionProof(0, 0, tree.read)).rejects.toThrow(MerkleArgumentError);
    await expect(inclusionProof(-1, 3, tree.read)).rejects.toThrow(/index must be a non-negative safe integer/);
    await expect(inclusionProof(0.5, 3, tree.read)).rejects.toThrow(/non-negative safe integer/);
    await expect(inclusionProof(0, 2 ** 64, tree.read)).rejects.toThrow(/safe integer/);
    await expect(inclusionProof(0n, 2n ** 64n, tree.read)).rejects.toThrow(/from 0 to 2\^64 - 1/);
    await expect(consistencyProof(0, 3, tree.read)).rejects.toThrow(/0 < m <= n/);
    await expect(consistencyProof(4, 3, tree.read)).rejects.toThrow(/0 < m <= n/);
    await expect(treeRoot(-1, tree.read)).rejects.toThrow(/size must be a non-negative safe integer/);
  });

  it('refuse a reader that answers with the wrong number of hashes or a short hash', async () => {
    await expect(inclusionProof(0, 5, async (refs) => refs.slice(1).map(() => Buffer.alloc(32)))).rejects.toThrow(MerkleReaderError);
    await expect(treeRoot(5, async (refs) => refs.map(() => Buffer.alloc(31)))).rejects.toThrow(/not 32 bytes/);
  });
});
