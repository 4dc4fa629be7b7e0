/** A span's weight by bucket index, a bucket maybe more than once: only the buckets of the current span count. */
export type SpentBuckets = ReadonlyMap<number, number> | ReadonlyArray<readonly [number, number]>;

/**
 * The arithmetic that keeps every window of the exchange, fixed or sliding, within the limit. Weight is counted in
 * buckets of the exchange's clock as this process reads it, and a take fits only if the last `buckets` buckets, its
 * own included, stay within the limit. Why that holds: the calls the exchange counts in one window were taken here
 * within windowMs + guardMs (the guard covers the delay from take to count and how far clocks disagree), which touch
 * at most `buckets` consecutive buckets. A steady drain so spends 97 % of the limit with 10 s windows (206 buckets of
 * 50 ms, a guard of 250 ms: 10.3 s).
 */
export class SlidingSpan {
  readonly bucketMs: number;
  /** How many buckets, the current one included, one limit covers. */
  readonly buckets: number;

  constructor(
    readonly windowMs: number,
    readonly guardMs: number,
  ) {
    // A 200th of the window: a finer bucket wastes less of the limit, a coarser one keeps fewer counts to sum.
    this.bucketMs = Math.max(1, Math.floor(windowMs / 200));
    this.buckets = Math.ceil((windowMs + guardMs) / this.bucketMs) + 1;
  }

  bucketOf(now: number): number {
    return Math.floor(now / this.bucketMs);
  }

  /** The first bucket of the span that ends with bucket `last`. */
  firstOf(last: number): number {
    return last - this.buckets + 1;
  }

  // Later buckets count too: taken by a clock that read later (stepped back since, or another process's ahead).
  sum(spent: SpentBuckets, last: number): number {
    const first = this.firstOf(last);
    let sum = 0;
    for (const [bucket, weight] of spent) if (bucket >= first) sum += weight;
    return sum;
  }

  /** How long until `points` more fit within `limit` (0: now): until enough of the oldest buckets have left the span. */
  waitFor(spent: SpentBuckets, now: number, points: number, limit: number): number {
    const last = this.bucketOf(now);
    let excess = this.sum(spent, last) + points - limit;
    if (points === 0 || excess <= 0) return 0;
    const oldest = [...spent].filter(([b]) => b >= this.firstOf(last)).sort(([a], [b]) => a - b);
    for (const [bucket, weight] of oldest) {
      excess -= weight;
      // Bucket b leaves the span when the current bucket is b + buckets.
      if (excess <= 0) return (bucket + this.buckets) * this.bucketMs - now;
    }
    return (last + this.buckets) * this.bucketMs - now; // points > limit: the whole span
  }
}
