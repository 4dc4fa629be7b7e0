/** How much one run of the audit check does per chain. */
export interface CheckBudget {
  /** Links verified past the frontier. */
  frontier: number;
  /** Older links re-verified (the sweep). */
  sweep: number;
  /** Rows counted below the frontier. */
  count: bigint;
}

/** A run asked for (verify, a checkpoint): a few seconds of one core at most. */
export const FULL_RUN: CheckBudget = { frontier: 50_000, sweep: 10_000, count: 100_000n };

const FULL_RUN_MS = 60_000;

/**
 * A periodic run's share of FULL_RUN per minute, so that the check takes a steady part of the upload worker, whatever
 * its interval: done as a full run every minute, it caught up on a large ingest in runs of 8-12 s that halved the drain
 * while they lasted (bench scenario 9).
 */
export function periodicBudget(intervalMs: number): CheckBudget {
  const share = Math.min(1, intervalMs / FULL_RUN_MS);
  return {
    frontier: Math.ceil(FULL_RUN.frontier * share),
    sweep: Math.ceil(FULL_RUN.sweep * share),
    count: BigInt(Math.ceil(Number(FULL_RUN.count) * share)),
  };
}
