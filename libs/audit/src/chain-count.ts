import type { AuditRows } from '#libs/ai-log';
import type { Chain, Finding } from './audit-check-view.js';
import { FULL_RUN } from './check-budget.js';

const OUTSIDE = {
  logs: (n: number) => `${n} logs are outside the chain (no seq or hash): they were not accepted through the gateway`,
  receipts: (n: number) => `${n} upload attempts are outside the receipt chain: they were not recorded through the gateway`,
};
const ITEM = { logs: 'log', receipts: 'receipt' };

export interface ChainCount {
  finding?: Finding;
  /** The chain's last stored seq, to compare with its head. */
  last: string | null;
  /** Where the next run counts from. */
  next: bigint;
}

/**
 * One run's count of a chain, verified up to `frontier`. Every run: rows outside the chain, the last seq, and seq 1 and
 * the frontier itself, each one descent of the index. Then the range from `cursor` (at most `size` rows, a range of
 * the unique index and of the heap pages it names while the visibility map lags: counting every row each run read the
 * whole 1.5 GB table at a million logs of 1.2 KB), from seq 1 round to the frontier again, so that a row deleted
 * anywhere is found within a pass. A range that comes up short is counted again at the next run, and a finding names
 * the seq alone (not the range or the frontier, which move on with new links), so that it reads the same, run after
 * run, until the rows are put back.
 */
export async function countChain(
  rows: AuditRows,
  chain: Chain,
  accountId: string,
  { cursor, frontier, size }: { cursor: bigint; frontier: bigint; size: bigint },
): Promise<ChainCount> {
  const from = cursor < frontier ? cursor : 0n;
  const to = from + size < frontier ? from + size : frontier;
  const tally = await rows.tally(chain, accountId, { from, to, frontier });
  const short = tally.inRange < to - from;
  const counted = { last: tally.last, next: short ? from : to < frontier ? to : 0n };
  const missing = (seq: string, next = counted.next): ChainCount => ({
    finding: { chain, seq, reason: `${ITEM[chain]} seq ${seq} is missing: it was verified earlier and is no longer stored` },
    last: tally.last,
    next,
  });
  if (tally.unlinked) return { ...counted, finding: { chain, seq: null, reason: OUTSIDE[chain](tally.unlinked) } };
  if (frontier > 0n && !tally.hasFirst) return missing('1', 0n);
  if (frontier > 0n && !tally.hasFrontier) {
    // New links move the frontier on past the gap (they link to the hash the check saved, not to the row), so the
    // range that ends at it is counted from now on, until it is whole: a full run's range whatever this run's size, so
    // that the finding names the same seq in every run.
    const start = frontier > FULL_RUN.count ? frontier - FULL_RUN.count : 0n;
    return missing(await rows.firstMissing(chain, accountId, start, frontier), start);
  }
  return short ? missing(await rows.firstMissing(chain, accountId, from, to)) : counted;
}
