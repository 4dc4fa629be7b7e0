interface Waiting<T, R> {
  items: T[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions<T> {
  /** How much of `maxItems` an item takes (default 1). */
  weigh?: (item: T) => number;
  /**
   * Whether a failed write may be the fault of one submission's items (bad data, say) rather than of the write itself.
   * Then the submissions are written again in halves, down to the one that fails alone, so that only its caller gets
   * the error. Only for errors after which the write is known to have changed nothing (a rolled-back transaction).
   */
  isolate?: (error: unknown) => boolean;
}

/**
 * Group commit: what concurrent callers submit while writes are in flight is written together by the next one, so
 * that one transaction (and one fsync) serves many requests. A lone caller is written at once, without waiting for
 * company; under load, batches grow by themselves up to `maxItems`. Each caller gets the results of its own items,
 * in order, when the write that held them has committed; if that write fails, every caller in it gets the error,
 * unless `isolate` says one caller's items may be to blame.
 *
 * Up to `maxInFlight` writes run at once. With two, the next group's round trips overlap the current one's instead of
 * waiting behind it (writes that must be serialised still can be, by a lock in the database).
 */
export class GroupCommit<T, R> {
  private queue: Waiting<T, R>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxItems = 500,
    private readonly maxInFlight = 1,
    private readonly options: GroupCommitOptions<T> = {},
  ) {}

  submit(items: T[]): Promise<R[]> {
    return new Promise<R[]>((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      if (!this.scheduled && this.inFlight < this.maxInFlight) {
        this.scheduled = true;
        // After the microtasks already queued: callers woken together (by one commit, say) all join the first write.
        queueMicrotask(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      this.inFlight++;
      void this.run(this.take()).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async run(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.write(batch.flatMap((w) => w.items));
      let offset = 0;
      for (const waiting of batch) {
        waiting.resolve(results.slice(offset, offset + waiting.items.length));
        offset += waiting.items.length;
      }
    } catch (error) {
      if (batch.length > 1 && this.options.isolate?.(error)) {
        // Bisect: about 2·log2(n) writes find one culprit among n submissions, where one write each would take n.
        const half = Math.ceil(batch.length / 2);
        await this.run(batch.slice(0, half));
        await this.run(batch.slice(half));
        return;
      }
      for (const waiting of batch) waiting.reject(error);
    }
  }

  /** Whole submissions, in order, up to maxItems (a single larger submission goes alone). */
  private take(): Waiting<T, R>[] {
    const weigh = this.options.weigh;
    let count = 0;
    let n = 0;
    while (n < this.queue.length) {
      const { items } = this.queue[n];
      const weight = weigh ? items.reduce((sum, item) => sum + weigh(item), 0) : items.length;
      if (n > 0 && count + weight > this.maxItems) break;
      count += weight;
      n++;
    }
    return this.queue.splice(0, n);
  }
}
