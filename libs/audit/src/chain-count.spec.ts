import type { AuditRows } from '#libs/ai-log';
import { countChain } from './chain-count.js';

/** AuditRows' count reads over a set of stored seqs, as PostgreSQL answers them. */
function rowsOf(stored: Set<bigint>, last: bigint): AuditRows {
  const has = (seq: bigint) => stored.has(seq);
  return {
    tally: async (_chain: string, _account: string, { from, to, frontier }: { from: bigint; to: bigint; frontier: bigint }) => {
      let inRange = 0;
      for (let seq = from + 1n; seq <= to; seq++) if (has(seq)) inRange++;
      return { unlinked: 0, inRange, hasFirst: has(1n), hasFrontier: has(frontier), last: last.toString() };
    },
    firstMissing: async (_chain: string, _account: string, from: bigint, to: bigint) => {
      for (let seq = from + 1n; seq < to; seq++) if (!has(seq)) return seq.toString();
      return to.toString();
    },
  } as unknown as AuditRows;
}

const chainOf = (n: number, gone: (seq: number) => boolean = () => false) =>
  new Set(Array.from({ length: n }, (_, i) => BigInt(i + 1)).filter((seq) => !gone(Number(seq))));

describe('countChain', () => {
  it('counts `size` rows a run from the cursor, and round from seq 1 at the frontier', async () => {
    const rows = rowsOf(chainOf(50_000), 50_000n);
    expect(await countChain(rows, 'logs', 'a', { cursor: 0n, frontier: 50_000n, size: 16_667n })).toEqual({ last: '50000', next: 16_667n });
    expect(await countChain(rows, 'logs', 'a', { cursor: 33_334n, frontier: 50_000n, size: 16_667n })).toEqual({ last: '50000', next: 0n });
  });

  it('keeps a short range until it is whole, naming its first missing seq', async () => {
    const rows = rowsOf(
      chainOf(50_000, (seq) => seq === 20_000),
      50_000n,
    );
    const counted = await countChain(rows, 'logs', 'a', { cursor: 16_667n, frontier: 50_000n, size: 16_667n });
    expect(counted).toMatchObject({
      next: 16_667n,
      finding: { seq: '20000', reason: 'log seq 20000 is missing: it was verified earlier and is no longer stored' },
    });
  });

  it('names the same first missing seq for a lost frontier whatever the run’s size', async () => {
    // The newest 20,000 verified rows deleted, the head left as it was.
    const rows = rowsOf(
      chainOf(200_000, (seq) => seq > 180_000),
      180_000n,
    );
    const periodic = await countChain(rows, 'logs', 'a', { cursor: 0n, frontier: 200_000n, size: 16_667n });
    const full = await countChain(rows, 'logs', 'a', { cursor: 0n, frontier: 200_000n, size: 100_000n });
    expect(periodic.finding?.seq).toBe('180001');
    expect(full.finding).toEqual(periodic.finding);
  });
});
