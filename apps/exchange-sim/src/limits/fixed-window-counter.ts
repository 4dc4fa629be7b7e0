import type { WindowCounter } from './window-counter.js';

/** Weight spent per key in fixed windows: window n covers [n × windowMs, (n + 1) × windowMs) of the simulator clock. */
export class FixedWindowCounter implements WindowCounter {
  private readonly spent = new Map<string, { window: number; used: number }>();

  constructor(private readonly windowMs: number) {}

  used(key: string, now: number): number {
    const entry = this.spent.get(key);
    return entry?.window === this.windowOf(now) ? entry.used : 0;
  }

  /** Adds (or, with a negative weight, takes back) weight in the current window; never goes below zero. */
  add(key: string, weight: number, now: number): void {
    this.spent.set(key, { window: this.windowOf(now), used: Math.max(0, this.used(key, now) + weight) });
  }

  clear(): void {
    this.spent.clear();
  }

  private windowOf(now: number): number {
    return Math.floor(now / this.windowMs);
  }
}
