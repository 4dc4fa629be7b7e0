import type { WindowCounter } from './window-counter.js';

/**
 * Weight spent per key over the last `windowMs` of the simulator clock: a log of timestamped charges, so that any span
 * of `windowMs` ending now holds at most what `used` says (an exchange that limits on a sliding window).
 */
export class SlidingWindowCounter implements WindowCounter {
  private readonly logs = new Map<string, Array<{ at: number; weight: number }>>();

  constructor(private readonly windowMs: number) {}

  /** Weight charged in (now - windowMs, now]. */
  used(key: string, now: number): number {
    const log = this.trimmed(key, now);
    let sum = 0;
    for (const entry of log) sum += entry.weight;
    return sum;
  }

  /** Charges weight at `now`, or (negative) takes back the latest charges, never below zero. */
  add(key: string, weight: number, now: number): void {
    const log = this.trimmed(key, now);
    if (weight >= 0) {
      log.push({ at: now, weight });
      return;
    }
    for (let left = -weight; left > 0 && log.length > 0;) {
      const last = log.at(-1)!;
      const taken = Math.min(left, last.weight);
      last.weight -= taken;
      left -= taken;
      if (last.weight === 0) log.pop();
    }
  }

  clear(): void {
    this.logs.clear();
  }

  private trimmed(key: string, now: number): Array<{ at: number; weight: number }> {
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = []));
    let drop = 0;
    while (drop < log.length && log[drop].at <= now - this.windowMs) drop++;
    if (drop > 0) log.splice(0, drop);
    return log;
  }
}
