import type { AuditRows } from '#libs/ai-log';
import type { Chain, Finding } from './audit-check-view.js';

/**
 * Rows a run counts per chain below its frontier, a range of the unique index (and of the heap pages it names while the
 * visibility map lags): counting every row each run read the whole 1.5 GB table at a million logs of 1.2 KB.
 */
export const COUNTED_LINKS = 100_000;

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
 * the frontier itself, each one descent of the index. Then the range from `cursor` (at most COUNTED_LINKS), from seq 1
 * round to the frontier again, so that a row deleted anywhere is found within a pass. A range that comes up short is
 * counted again at the next run, so that the finding stays the same until the rows are put back.
 */
export async function countChain(rows: AuditRows, chain: Chain, accountId: string, cursor: bigint, frontier: bigint): Promise<ChainCount> {
  const from = cursor < frontier ? cursor : 0n;
  const to = from + BigInt(COUNTED_LINKS) < frontier ? from + BigInt(COUNTED_LINKS) : frontier;
  const tally = await rows.tally(chain, accountId, { from, to, frontier });
  const short = tally.inRange < to - from;
  const next = short ? from : to < frontier ? to : 0n;
  const missing = (seq: string, why: string): ChainCount => ({
    finding: { chain, seq, reason: `${ITEM[chain]} seq ${seq} is missing: ${why}` },
    last: tally.last,
    next,
  });
  if (tally.unlinked) return { finding: { chain, seq: null, reason: OUTSIDE[chain](tally.unlinked) }, last: tally.last, next };
  if (frontier > 0n && !tally.hasFirst) return missing('1', `the chain was verified from seq 1 to ${frontier}`);
  if (frontier > 0n && !tally.hasFrontier) {
    // The tail cut off: the first seq gone is the one after the last stored.
    const seq = tally.last !== null && BigInt(tally.last) < frontier ? BigInt(tally.last) + 1n : frontier;
    return missing(seq.toString(), `the chain was verified from seq 1 to ${frontier}`);
  }
  if (short) {
    const seq = await rows.firstMissing(chain, accountId, from, to);
    return missing(seq, `seq ${from + 1n}..${to}, verified earlier, holds ${tally.inRange} of its ${to - from} ${chain}`);
  }
  return { last: tally.last, next };
}
