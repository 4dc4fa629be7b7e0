import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { SlidingSpan, type SpentBuckets } from './sliding-span.js';
import type { WindowUsage } from './weight-budget.js';

export interface WindowClock {
  /** The exchange's time in ms (local time corrected by the measured offset). */
  now: () => number;
  /** How much later than its take the exchange may count a call, and how far processes' clocks may disagree. */
  guardMs: number;
}

/** The key, beside the budget's weight, whose presence pauses the budget. */
export const PAUSE_KEY = 'pause';

/**
 * One weight budget (per IP or per UID): its limit, its span arithmetic (SlidingSpan: no window of the exchange,
 * fixed or sliding, ever holds more than the limit), the store's weight by bucket, and its pause after a 429, a
 * rate-limiter-flexible block. Fixed windows aligned to the clock (window n covers [n × windowMs, (n + 1) × windowMs))
 * still time pauses.
 */
export class BudgetWindow {
  readonly span: SlidingSpan;

  constructor(
    private readonly pauses: RateLimiterAbstract,
    readonly limit: number,
    readonly windowMs: number,
    readonly clock: WindowClock,
    /** The Redis store expires blocks by whole seconds; the memory store takes fractions of a second. */
    private readonly store: 'redis' | 'memory',
    /** The budget's weight by bucket, as its store holds it, for the span ending at `now`. */
    private readonly read: (now: number) => Promise<SpentBuckets>,
  ) {
    this.span = new SlidingSpan(windowMs, clock.guardMs);
  }

  /** How long a pause after a 429 still holds every call back (0: not paused). Takes nothing. */
  async pausedMs(): Promise<number> {
    const paused = await this.pauses.get(PAUSE_KEY);
    return paused && paused.msBeforeNext > 0 ? paused.msBeforeNext : 0;
  }

  /** Takes nothing for `ms`, or for the rest of the current window if that is longer. */
  async pause(ms: number): Promise<void> {
    const total = Math.max(ms, this.slot().msLeft + this.clock.guardMs, 1);
    await this.pauses.block(PAUSE_KEY, this.store === 'redis' ? Math.ceil(total / 1000) : total / 1000);
  }

  async usage(): Promise<WindowUsage> {
    const now = this.clock.now();
    const [spent, pausedMs] = await Promise.all([this.read(now), this.pausedMs()]);
    const used = this.span.sum(spent, this.span.bucketOf(now));
    return { limit: this.limit, used, msBeforeReset: this.span.msBeforeFree(spent, now), pausedMs };
  }

  /** Now: the fixed window's index and the time left in it, and the bucket weight is counted in (`key`: `b<bucket>`). */
  slot(): { index: number; msLeft: number; bucket: number; key: string } {
    const now = this.clock.now();
    const index = Math.floor(now / this.windowMs);
    const bucket = this.span.bucketOf(now);
    return { index, msLeft: (index + 1) * this.windowMs - now, bucket, key: `b${bucket}` };
  }
}
