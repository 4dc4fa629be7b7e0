import { MerkleArgumentError } from './errors.js';
import { append, parseFrontier, rootOf, serializeFrontier } from './frontier.js';
import { EMPTY_ROOT, leafHash } from './hashing.js';
import { MemoryTree, naiveRoot } from './testing/reference.js';

describe('frontier appends', () => {
  it('store levels 0..t for leaf i, t its trailing 1-bits, and give the naive MTH root for 1..1000 leaves', () => {
    const tree = new MemoryTree();
    const leaves: Buffer[] = [];
    for (let i = 0; i < 1000; i++) {
      const leaf = leafHash(Buffer.from(`log ${i}`));
      leaves.push(leaf);
      const stored = tree.append(leaf);
      expect(stored.length).toBe(1 + (i.toString(2).match(/1*$/)?.[0].length ?? 0));
      expect(stored[stored.length - 1].equals(naiveRoot(leaves.slice(i + 1 - 2 ** (stored.length - 1))))).toBe(true);
      expect(rootOf(tree.frontier, i + 1).equals(naiveRoot(leaves))).toBe(true);
    }
  });

  it('do not change the frontier passed in', () => {
    const first = append([], 0, leafHash(Buffer.from('a'))).frontier;
    const copy = first.slice();
    append(first, 1, leafHash(Buffer.from('b')));
    expect(first).toEqual(copy);
  });

  it('refuse a frontier that does not fit the size, a bad leaf hash and a bad size', () => {
    const hash = leafHash(Buffer.from('a'));
    expect(() => append([], 1, hash)).toThrow(MerkleArgumentError);
    expect(() => append([hash], 3, hash)).toThrow(/one per set bit of the size/);
    expect(() => append([], 0, Buffer.alloc(31))).toThrow(/leafHash must be a 32-byte Buffer/);
    expect(() => append([], -1, hash)).toThrow(/non-negative safe integer/);
    expect(() => append([], 1.5, hash)).toThrow(/non-negative safe integer/);
    expect(() => append([], 2 ** 53, hash)).toThrow(/safe integer/);
    expect(() => rootOf([hash, Buffer.alloc(32)], 2)).toThrow(/must hold 1 hashes/);
    expect(rootOf([], 0n).equals(EMPTY_ROOT)).toBe(true);
  });
});

describe('frontier serialization', () => {
  it('round-trips for every size up to 300 and for a size above 2^53', () => {
    const tree = new MemoryTree();
    for (let size = 0; size <= 300; size++) {
      const bytes = serializeFrontier(tree.frontier, size);
      expect(bytes.length).toBe(32 * tree.frontier.length);
      expect(parseFrontier(bytes, size)).toEqual(tree.frontier);
      tree.append(leafHash(Buffer.from(`log ${size}`)));
    }
    const big = 2n ** 60n + 5n;
    const frontier = [1, 2, 3].map((i) => leafHash(Buffer.from([i])));
    expect(parseFrontier(serializeFrontier(frontier, big), big)).toEqual(frontier);
  });

  it('rejects bytes that are not exactly 32 per set bit of the size', () => {
    const three = Buffer.alloc(96, 7);
    expect(() => parseFrontier(three, 7)).not.toThrow();
    expect(() => parseFrontier(three.subarray(0, 95), 7)).toThrow(MerkleArgumentError);
    expect(() => parseFrontier(Buffer.concat([three, Buffer.alloc(1)]), 7)).toThrow(/must be 96 bytes \(3 hashes\), got 97/);
    expect(() => parseFrontier(three, 8)).toThrow(/must be 32 bytes/);
    expect(() => parseFrontier(Buffer.alloc(32), 0)).toThrow(/must be 0 bytes/);
    expect(parseFrontier(Buffer.alloc(0), 0)).toEqual([]);
  });
});
