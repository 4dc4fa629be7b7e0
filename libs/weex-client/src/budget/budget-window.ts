import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { WindowUsage } from './weight-budget.js';

export interface WindowClock {
  /** The exchange's time in ms (local time corrected by the measured offset). */
  now: () => number;
  /** Nothing is taken this close to a window boundary, on either side: covers clock skew and network latency. */
  guardMs: number;
}

/** The key, beside the windows' keys, whose presence pauses the budget. */
export const PAUSE_KEY = 'pause';

/**
 * One weight budget (per IP or per UID) in fixed windows aligned to the clock: window n covers
 * [n × windowMs, (n + 1) × windowMs), as exchanges count request weight. Each window is its own key of a
 * rate-limiter-flexible limiter, so a window's count is never carried into the next; a pause is one more key.
 */
export class BudgetWindow {
  constructor(
    private readonly limiter: RateLimiterAbstract,
    readonly limit: number,
    readonly windowMs: number,
    readonly clock: WindowClock,
    /** The Redis store expires blocks by whole seconds; the memory store takes fractions of a second. */
    private readonly store: 'redis' | 'memory',
  ) {}

  /** How long a pause after a 429 still holds every call back (0: not paused). Takes nothing. */
  async pausedMs(): Promise<number> {
    const paused = await this.limiter.get(PAUSE_KEY);
    return paused && paused.msBeforeNext > 0 ? paused.msBeforeNext : 0;
  }

  /**
   * Takes `points` in the current window: `{ wait: 0, key }` when taken, else how long to wait. For a store that
   * cannot take both windows' weights in one step (memory); the Redis budget takes them with TAKE_BOTH_LUA.
   */
  async take(points: number): Promise<{ wait: number; key?: string }> {
    if (points === 0) return { wait: 0 };
    const slot = this.slot();
    if (slot.guardWait > 0) return { wait: slot.guardWait };
    try {
      await this.limiter.consume(slot.key, points);
      return { wait: 0, key: slot.key };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      // The limiter counts a refused take too: give it back.
      await this.limiter.reward(slot.key, points);
      return { wait: slot.msLeft + this.clock.guardMs };
    }
  }

  /** Gives back points taken under `key` (their window's key: an ended window is never read again). */
  async giveBack(key: string | undefined, points: number): Promise<void> {
    if (key !== undefined && points > 0) await this.limiter.reward(key, points);
  }

  /** Takes nothing for `ms`, or for the rest of the current window if that is longer. */
  async pause(ms: number): Promise<void> {
    const total = Math.max(ms, this.slot().msLeft + this.clock.guardMs, 1);
    await this.limiter.block(PAUSE_KEY, this.store === 'redis' ? Math.ceil(total / 1000) : total / 1000);
  }

  async usage(): Promise<WindowUsage> {
    const slot = this.slot();
    const [res, pausedMs] = await Promise.all([this.limiter.get(slot.key), this.pausedMs()]);
    return { limit: this.limit, used: res?.consumedPoints ?? 0, msBeforeReset: slot.msLeft, pausedMs };
  }

  /** The current window: its index and key, the time left in it, and how long the boundary guard holds takes back (0: none). */
  slot(): { index: number; key: string; msLeft: number; guardWait: number } {
    const now = this.clock.now();
    const index = Math.floor(now / this.windowMs);
    const into = now - index * this.windowMs;
    const msLeft = this.windowMs - into;
    const { guardMs } = this.clock;
    const guardWait = into < guardMs ? guardMs - into : msLeft <= guardMs ? msLeft + guardMs : 0;
    return { index, key: `w${index}`, msLeft, guardWait };
  }
}
