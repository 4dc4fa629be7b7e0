interface Waiting<T, R> {
  items: T[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: what concurrent callers submit while writes are in flight is written together by the next one, so
 * that one transaction (and one fsync) serves many requests. A lone caller is written at once, without waiting for
 * company; under load, batches grow by themselves up to `maxItems`. Each caller gets the results of its own items,
 * in order, when the write that held them has committed; if that write fails, every caller in it gets the error.
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
      for (const waiting of batch) waiting.reject(error);
    }
  }

  /** Whole submissions, in order, up to maxItems (a single larger submission goes alone). */
  private take(): Waiting<T, R>[] {
    let count = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || count + this.queue[n].items.length <= this.maxItems)) {
      count += this.queue[n].items.length;
      n++;
    }
    return this.queue.splice(0, n);
  }
}
