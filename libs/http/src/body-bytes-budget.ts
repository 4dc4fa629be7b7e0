/**
 * How many bytes of request bodies the process parses and holds at once. A body costs several times its size while
 * its request is under way (the decoded text, the parsed object, the canonical text, the rows sent to PostgreSQL), so
 * two dozen agents posting 1 MB logs at once grew the API by 130 MB (bench scenario `abuse`). A body that does not fit
 * waits, read but not parsed, until earlier ones are answered: an abusive sender slows down, nobody gets an error, and
 * a slow sender holds nothing while its body trickles in. A body larger than the whole budget waits for it to empty.
 */
export class BodyBytesBudget {
  private used = 0;
  private readonly waiting: Array<{ bytes: number; resolve: () => void }> = [];

  constructor(readonly limit: number) {}

  /** Takes `bytes` now (true), or false when they do not fit or others wait before them; then call `wait`. */
  tryTake(bytes: number): boolean {
    const held = Math.min(bytes, this.limit);
    if (this.waiting.length > 0 || this.used + held > this.limit) return false;
    this.used += held;
    return true;
  }

  /** Resolves once `bytes` are taken, after the bodies that waited before it (first come, first served). */
  wait(bytes: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push({ bytes: Math.min(bytes, this.limit), resolve });
      this.admit();
    });
  }

  /** Gives back what `tryTake` or `wait` took for `bytes`. */
  release(bytes: number): void {
    this.used -= Math.min(bytes, this.limit);
    this.admit();
  }

  private admit(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0].bytes <= this.limit) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.resolve();
    }
  }
}
