/** A span's weight by bucket index: only the buckets of the current span count. */
export type SpentBuckets = ReadonlyMap<number, number>;

/**
 * The arithmetic of a budget that no span of the exchange's window can exceed, whether the exchange counts in fixed
 * windows aligned to its clock or in sliding ones. Weight is counted in short buckets (bucket k covers
 * [k × bucketMs, (k + 1) × bucketMs) of the exchange's clock as this process reads it), and a take fits only if the
 * last `buckets` buckets, its own included, stay within the limit.
 *
 * Why that holds on the exchange: the requests the exchange counts in one window (fixed or sliding, windowMs long)
 * were taken here within windowMs + guardMs (the guard covers the delay from take to count and how far processes'
 * clocks disagree); such a time span touches at most ceil((windowMs + guardMs) / bucketMs) + 1 consecutive buckets,
 * and every run of that many buckets holds at most the limit: when a bucket's last take was granted, the buckets
 * before it were already final. A steady drain so spends limit per (buckets × bucketMs): 97 % of the limit for 10 s
 * windows (bucket 50 ms, guard 250 ms, 206 buckets: 10.3 s).
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

  /**
   * Weight in the span that ends with bucket `last`, and in later buckets: taken by a clock that read later (stepped
   * back since, or another process's running ahead), their weight still counts until it leaves the span.
   */
  sum(spent: SpentBuckets, last: number): number {
    const first = this.firstOf(last);
    let sum = 0;
    for (const [bucket, weight] of spent) if (bucket >= first) sum += weight;
    return sum;
  }

  /**
   * How long until `points` more fit within `limit` (0: now): until enough of the oldest buckets have left the span.
   * Assumes points ≤ limit.
   */
  waitFor(spent: SpentBuckets, now: number, points: number, limit: number): number {
    const last = this.bucketOf(now);
    let excess = this.sum(spent, last) + points - limit;
    if (excess <= 0) return 0;
    const first = this.firstOf(last);
    const oldest = [...spent.keys()].filter((b) => b >= first).sort((a, b) => a - b);
    for (const bucket of oldest) {
      excess -= spent.get(bucket)!;
      // Bucket b leaves the span when the current bucket is b + buckets.
      if (excess <= 0) return (bucket + this.buckets) * this.bucketMs - now;
    }
    return (last + this.buckets) * this.bucketMs - now; // unreachable while points ≤ limit
  }

  /** Until the oldest weight in the span leaves it (0: the span is empty): when some of the limit frees up next. */
  msBeforeFree(spent: SpentBuckets, now: number): number {
    const last = this.bucketOf(now);
    const first = this.firstOf(last);
    const held = [...spent].filter(([b, w]) => b >= first && w > 0).map(([b]) => b);
    return held.length === 0 ? 0 : (Math.min(...held) + this.buckets) * this.bucketMs - now;
  }
}
