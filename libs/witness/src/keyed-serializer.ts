/**
 * Runs tasks one at a time per key, in the order they came: the witness's check of the stored size and its write of
 * the new one must not interleave for one origin (tlog-witness's rollback race), while other origins go on.
 * In-process only: one process owns a witness's state.
 */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // Forget an idle key, so that a witness of many origins keeps no chain per origin it ever saw.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task queued or running (for tests). */
  get busy(): number {
    return this.tails.size;
  }
}
