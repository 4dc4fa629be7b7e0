import type { Clock } from '../sim-clock.js';
import { type BudgetConfig, type BudgetOptions, parseBudgetConfig } from './budget-config.js';
import { FixedWindowCounter } from './fixed-window-counter.js';
import { SlidingWindowCounter } from './sliding-window-counter.js';
import type { WindowCounter } from './window-counter.js';

export type BudgetKind = 'ip' | 'uid';

/** Totals since the simulator started, for one IP or one UID. */
export interface WeightUse {
  used: number;
  refused429: number;
}

/** What `GET /__sim/stats` shows under `weight`. */
export interface WeightStats {
  byIp: Record<string, WeightUse>;
  byUid: Record<string, WeightUse>;
  refused429: number;
}

/** One entry of exchangeInfo's `rateLimits[]`. */
export interface RateLimitEntry {
  rateLimitType: 'REQUEST_WEIGHT';
  interval: 'SECOND';
  intervalNum: number;
  limit: number;
}

/**
 * Per-IP and per-UID weight budgets in fixed (or, with `window: 'sliding'`, sliding) windows of the simulator clock,
 * so a test moves to the next window by moving its clock. Hand-written rather than rate-limiter-flexible, whose
 * memory store reads `Date.now` itself.
 */
export class WeightBudgets {
  private current: BudgetConfig;
  private windows: Record<BudgetKind, WindowCounter>;
  private readonly totals = { ip: new Map<string, WeightUse>(), uid: new Map<string, WeightUse>() };

  constructor(
    private readonly clock: Clock,
    private readonly initial: BudgetOptions = {},
  ) {
    this.current = parseBudgetConfig(initial);
    this.windows = counters(this.current);
  }

  get config(): BudgetConfig {
    return structuredClone(this.current);
  }

  /** Replaces the budgets (missing fields take the defaults) and starts every window afresh. */
  set(options: BudgetOptions): BudgetConfig {
    this.current = parseBudgetConfig(options);
    this.windows = counters(this.current);
    return this.config;
  }

  /** Back to the budgets the simulator started with. */
  reset(): BudgetConfig {
    return this.set(this.initial);
  }

  /** In WEEX's exchangeInfo shape: the IP budget first, then the default UID budget. */
  get rateLimits(): RateLimitEntry[] {
    const entry = (limit: number): RateLimitEntry => ({
      rateLimitType: 'REQUEST_WEIGHT',
      interval: 'SECOND',
      intervalNum: this.current.windowMs / 1000,
      limit,
    });
    return [entry(this.current.ipLimit), entry(this.current.uidLimit)];
  }

  limitOf(kind: BudgetKind, key: string): number {
    if (kind === 'ip') return this.current.ipLimit;
    return this.current.accounts[key]?.uidLimit ?? this.current.uidLimit;
  }

  /** Charges the weight if it fits in the current window; a refused request charges nothing and counts as refused. */
  tryCharge(kind: BudgetKind, key: string, weight: number): boolean {
    const now = this.clock();
    const total = this.totalOf(kind, key);
    if (this.windows[kind].used(key, now) + weight > this.limitOf(kind, key)) {
      total.refused429 += 1;
      return false;
    }
    this.windows[kind].add(key, weight, now);
    total.used += weight;
    return true;
  }

  /** Takes back a charge of this window, when the other budget refused the same request. */
  refund(kind: BudgetKind, key: string, weight: number): void {
    this.windows[kind].add(key, -weight, this.clock());
    this.totalOf(kind, key).used -= weight;
  }

  /** Weight spent in the current window (sliding: in the last `windowMs`). */
  usedNow(kind: BudgetKind, key: string): number {
    return this.windows[kind].used(key, this.clock());
  }

  stats(): WeightStats {
    const byIp = Object.fromEntries([...this.totals.ip].map(([k, v]) => [k, { ...v }]));
    const byUid = Object.fromEntries([...this.totals.uid].map(([k, v]) => [k, { ...v }]));
    const refused = [...this.totals.ip.values(), ...this.totals.uid.values()].reduce((n, u) => n + u.refused429, 0);
    return { byIp, byUid, refused429: refused };
  }

  private totalOf(kind: BudgetKind, key: string): WeightUse {
    let total = this.totals[kind].get(key);
    if (!total) this.totals[kind].set(key, (total = { used: 0, refused429: 0 }));
    return total;
  }
}

function counters({ window, windowMs }: BudgetConfig): Record<BudgetKind, WindowCounter> {
  const make = () => (window === 'sliding' ? new SlidingWindowCounter(windowMs) : new FixedWindowCounter(windowMs));
  return { ip: make(), uid: make() };
}
