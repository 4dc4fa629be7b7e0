import { createHash } from 'node:crypto';
import { LogTreeBuilder } from './log-tree-builder.js';

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
/** RFC 9162 §2.1.1's MTH, recursive as the RFC writes it. */
function mth(entries: Buffer[]): Buffer {
  if (entries.length === 0) return sha256();
  if (entries.length === 1) return sha256(Buffer.of(0), entries[0]);
  let k = 1;
  while (k * 2 < entries.length) k *= 2;
  return sha256(Buffer.of(1), mth(entries.slice(0, k)), mth(entries.slice(k)));
}

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
