/** A call's weight in the IP budget (shared by every account calling from one IP) and in its account's UID budget. */
export type Weight = { ip: number; uid: number };

export interface BudgetLimits {
  /** Each budget: at most `limit` weight in any span of `windowMs`, fixed or sliding. */
  ip: { limit: number; windowMs: number };
  uid: { limit: number; windowMs: number };
  /** The exchange's clock, by which weight is counted (SlidingSpan); default `Date.now`. */
  now?: () => number;
  /** How much later than its take the exchange may count a call, and how far clocks disagree; default min(250, windowMs / 10). */
  guardMs?: number;
  /** The heaviest call's weight, which the limits must hold; default 1 and 1. */
  heaviest?: Weight;
}

/** `used`: in the span (a window and its guard) ending now; `msBeforeReset`: until its oldest weight leaves it; `pausedMs`: until a pause ends. */
export type WindowUsage = { limit: number; used: number; msBeforeReset: number; pausedMs: number };

export type BudgetUsage = { ip: WindowUsage; uid: WindowUsage };

/** `maxWaitMs`: refuse at once with BudgetWaitTooLong rather than wait longer; default: wait. */
export type AcquireOptions = { signal?: AbortSignal; maxWaitMs?: number };

/** A call's weight, taken: spent by the call, or given back when the call is not made. */
export interface WeightGrant {
  readonly label: string;
  /** Returns the weight to the budget, once (weight that has left the span is not given anything back). */
  giveBack(): Promise<void>;
  /** False once taken more than half the guard ago: sent later, the call could land in a window the count missed. */
  fresh(): boolean;
}

/** An account's request weight budgets: a call waits for weight instead of earning a 429. */
export interface WeightBudget {
  /** Waits until both weights fit, then takes them (both or neither); `label` names the call in errors. */
  acquire(label: string, weight: Weight, options?: AcquireOptions): Promise<WeightGrant>;
  /** After a 429: lets nothing through, for every process sharing the budget, for `ms` or the rest of the window. */
  pause(ms: number): Promise<void>;
  usage(): Promise<BudgetUsage>;
}

/** The budget would hold the call back longer than the caller's `maxWaitMs`; nothing was taken. */
export class BudgetWaitTooLong extends Error {
  override readonly name = 'BudgetWaitTooLong';

  /** `waitMs`: how long the budget would have held the call back. */
  constructor(
    readonly label: string,
    readonly waitMs: number,
  ) {
    super(`the weight budget would hold ${label} back ${waitMs} ms`);
  }
}
