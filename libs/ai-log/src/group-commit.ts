interface Waiting<T, R> {
  items: T[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: what concurrent callers submit while a write is in flight is written together by the next one, so
 * that one transaction (and one fsync) serves many requests. A lone caller is written at once, without waiting for
 * company; under load, batches grow by themselves up to `maxItems`. Each caller gets the results of its own items,
 * in order, when the write that held them has committed; if that write fails, every caller in it gets the error.
 */
export class GroupCommit<T, R> {
  private queue: Waiting<T, R>[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxItems = 500,
  ) {}

  submit(items: T[]): Promise<R[]> {
    return new Promise<R[]>((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // After the microtasks already queued: callers woken together (by one commit, say) all join the first write.
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.take();
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
    this.writing = false;
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
