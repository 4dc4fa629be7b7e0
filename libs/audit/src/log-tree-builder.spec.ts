import { leafHash } from '#libs/merkle-tree';
import { naiveRoot } from '../../merkle-tree/src/testing/reference.js';
import { LogTreeBuilder } from './log-tree-builder.js';

const mth = (entries: Buffer[]) => naiveRoot(entries.map(leafHash));

describe('LogTreeBuilder', () => {
  const logs = Array.from({ length: 40 }, (_, i) => `{"seq":${i + 1},"é":"${'x'.repeat(i)}"}`);

  it('has the RFC 9162 root of the UTF-8 entries at every size, resumed from its stored compact range or not', () => {
    let tree = LogTreeBuilder.empty();
    for (let n = 0; n <= logs.length; n++) {
      expect(tree.root()).toEqual(mth(logs.slice(0, n).map((l) => Buffer.from(l, 'utf8'))));
      expect(tree.size).toBe(BigInt(n));
      if (n === logs.length) break;
      tree = n % 3 === 0 ? LogTreeBuilder.resume(tree.serialized(), tree.size) : tree;
      tree.add(logs[n]);
    }
  });

  it("hands out each leaf's row once: its index and the complete subtrees that end at it", () => {
    const tree = LogTreeBuilder.empty();
    for (const log of logs.slice(0, 4)) tree.add(log);
    const rows = tree.take();
    expect(rows.map((r) => [r.leafIndex, r.hashes.length])).toEqual([
      [0n, 1],
      [1n, 2],
      [2n, 1],
      [3n, 3],
    ]);
    expect(rows[3].hashes[2]).toEqual(tree.root());
    expect(tree.take()).toEqual([]);
  });

  it('refuses a stored compact range that does not fit its size', () => {
    expect(() => LogTreeBuilder.resume(Buffer.alloc(32), 3n)).toThrow(/must be 64 bytes/);
  });
});
