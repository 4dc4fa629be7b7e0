import { setTimeout as delay } from 'node:timers/promises';
import { SlidingSpan, type SpentBuckets } from './sliding-span.js';
import type { AcquireOptions, BudgetLimits, BudgetUsage, Weight, WeightBudget, WeightGrant } from './weight-budget.js';
import { BudgetWaitTooLong } from './weight-budget.js';

export type BudgetWindow = { limit: number; span: SlidingSpan };
/** Both budgets' windows, and the clock they count by; a store holds each one's weight by bucket and pause. */
export type BudgetWindows = { ip: BudgetWindow; uid: BudgetWindow; now: () => number };
export type StoredWindow = { spent: SpentBuckets; pausedMs: number };

/** Where the weight is counted: both weights or neither, atomically for every process that shares it. */
export interface BudgetStore {
  /** Takes `weight` in `buckets` (each budget's bucket at `now`) and answers 0, or answers how long to wait. */
  take(weight: Weight, buckets: Weight, now: number): Promise<number>;
  /** Gives back weight taken in `buckets`, to those still in their span. */
  giveBack(weight: Weight, buckets: Weight): Promise<void>;
  /** Lets nothing through for `ms` (per budget), or for longer if a pause already holds it. */
  pause(ms: Weight): Promise<void>;
  read(now: number): Promise<Record<'ip' | 'uid', StoredWindow>>;
}

/** The windows of valid limits; refuses limits that the heaviest call could never fit into. */
export function budgetWindows(limits: BudgetLimits): BudgetWindows {
  const window = (name: 'ip' | 'uid', { limit, windowMs }: BudgetLimits['ip']): BudgetWindow => {
    const need = limits.heaviest?.[name] ?? 1;
    if (!Number.isInteger(limit) || limit < need)
      throw new RangeError(`${name} weight limit must be an integer of at least ${need}, the largest operation weight (got ${limit})`);
    if (!(windowMs > 0)) throw new RangeError(`${name} weight window must be positive (got ${windowMs} ms)`);
    return { limit, span: new SlidingSpan(windowMs, limits.guardMs ?? Math.min(250, Math.floor(windowMs / 10))) };
  };
  return { ip: window('ip', limits.ip), uid: window('uid', limits.uid), now: limits.now ?? Date.now };
}

// Callers take at once while there is room; one that finds none joins this process's line, served one at a time in
// call order (newcomers too), so that waiting callers do not stampede the store.
export class LinedWeightBudget implements WeightBudget {
  private tail: Promise<unknown> = Promise.resolve();
  private inLine = 0;

  constructor(
    private readonly windows: BudgetWindows,
    private readonly store: BudgetStore,
  ) {}

  async acquire(label: string, weight: Weight, { signal, maxWaitMs = Infinity }: AcquireOptions = {}): Promise<WeightGrant> {
    signal?.throwIfAborted();
    const taken = this.inLine === 0 ? await this.take(label, weight, maxWaitMs) : 0;
    if (typeof taken !== 'number') return taken;
    this.inLine++;
    const turn = this.tail.then(async () => {
      for (;;) {
        signal?.throwIfAborted();
        const next = await this.take(label, weight, maxWaitMs);
        if (typeof next !== 'number') return next;
        await delay(next + 5, undefined, { signal }); // just after: timers may fire a little early
      }
    });
    this.tail = turn.catch(() => undefined);
    return turn.finally(() => this.inLine--);
  }

  async pause(ms: number): Promise<void> {
    const now = this.windows.now();
    // At least the rest of the exchange's fixed window and the guard: a 429 says that window is spent.
    const until = ({ span: { windowMs, guardMs } }: BudgetWindow) => Math.ceil(Math.max(ms, (Math.floor(now / windowMs) + 1) * windowMs - now + guardMs, 1));
    await this.store.pause({ ip: until(this.windows.ip), uid: until(this.windows.uid) });
  }

  async usage(): Promise<BudgetUsage> {
    const now = this.windows.now();
    const stored = await this.store.read(now);
    const usage = ({ limit, span }: BudgetWindow, { spent, pausedMs }: StoredWindow) => {
      const used = span.sum(spent, span.bucketOf(now));
      // Until one more fits in a span holding `used`: until its oldest weight leaves it.
      return { limit, used, msBeforeReset: used > 0 ? span.waitFor(spent, now, 1, used) : 0, pausedMs };
    };
    return { ip: usage(this.windows.ip, stored.ip), uid: usage(this.windows.uid, stored.uid) };
  }

  /** A grant, or how long to wait; refuses a wait beyond `maxWaitMs`. */
  private async take(label: string, weight: Weight, maxWaitMs: number): Promise<WeightGrant | number> {
    const { now, ip, uid } = this.windows;
    // Freshness counts from the ask: a slow answer (Redis) is part of the delay the guard must cover.
    const askedAt = now();
    const buckets = { ip: ip.span.bucketOf(askedAt), uid: uid.span.bucketOf(askedAt) };
    const wait = await this.store.take(weight, buckets, askedAt);
    if (wait > maxWaitMs) throw new BudgetWaitTooLong(label, wait);
    if (wait > 0) return wait;
    let given = false;
    return {
      label,
      fresh: () => now() - askedAt <= ip.span.guardMs / 2,
      giveBack: async () => {
        if (given) return;
        given = true;
        await this.store.giveBack(weight, buckets);
      },
    };
  }
}
