import type { SlidingSpan, SpentBuckets } from './sliding-span.js';

/** One budget's weight by bucket, in this process's memory (embedded mode); buckets that left the span are dropped. */
export class MemorySpent {
  private readonly spent = new Map<number, number>();

  constructor(private readonly span: SlidingSpan) {}

  /** The buckets of the span ending at `now`. */
  read(now: number): SpentBuckets {
    const first = this.span.firstOf(this.span.bucketOf(now));
    for (const bucket of this.spent.keys()) if (bucket < first) this.spent.delete(bucket);
    return this.spent;
  }

  add(bucket: number, points: number): void {
    if (points > 0) this.spent.set(bucket, (this.spent.get(bucket) ?? 0) + points);
  }

  /** Takes back weight of a bucket still in the span (one that left it no longer counts). */
  giveBack(bucket: number, points: number, now: number): void {
    const held = this.read(now).get(bucket);
    if (held !== undefined && points > 0) this.spent.set(bucket, Math.max(0, held - points));
  }
}
