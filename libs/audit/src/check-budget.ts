/** How much one run of the audit check does per chain. */
export interface CheckBudget {
  /** Links verified past the frontier. */
  frontier: number;
  /** Older links re-verified (the sweep). */
  sweep: number;
  /** Rows counted below the frontier. */
  count: bigint;
}

/** A run asked for (verify, a checkpoint), and the most a periodic run does: a few seconds of one core at most. */
export const FULL_RUN: CheckBudget = { frontier: 50_000, sweep: 10_000, count: 100_000n };

const MINUTE_MS = 60_000;

/**
 * A periodic run's budget: `linksPerMinute` new links per chain (with the sweep and the count in proportion) for the
 * time since the account's last run, at most FULL_RUN. Done as a full run every minute, the check caught up on a large
 * ingest in runs of 8-12 s that halved the upload drain while they lasted (bench scenario 9). Measured from the last
 * run rather than the interval, the rate holds when runs are skipped or workers disagree on the interval.
 */
export function periodicBudget(sinceLastRunMs: number, linksPerMinute: number): CheckBudget {
  const share = Math.min(1, (sinceLastRunMs / MINUTE_MS) * (linksPerMinute / FULL_RUN.frontier));
  return {
    frontier: Math.max(1, Math.ceil(FULL_RUN.frontier * share)),
    sweep: Math.max(1, Math.ceil(FULL_RUN.sweep * share)),
    count: BigInt(Math.max(1, Math.ceil(Number(FULL_RUN.count) * share))),
  };
}
