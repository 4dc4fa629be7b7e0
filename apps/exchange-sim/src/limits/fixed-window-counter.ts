/** Weight spent per key in fixed windows: window n covers [n × windowMs, (n + 1) × windowMs) of the simulator clock. */
export class FixedWindowCounter {
  private readonly spent = new Map<string, { window: number; used: number }>();

  used(key: string, window: number): number {
    const entry = this.spent.get(key);
    return entry?.window === window ? entry.used : 0;
  }

  /** Adds (or, with a negative weight, takes back) weight in a window; never goes below zero. */
  add(key: string, weight: number, window: number): void {
    this.spent.set(key, { window, used: Math.max(0, this.used(key, window) + weight) });
  }

  clear(): void {
    this.spent.clear();
  }
}
