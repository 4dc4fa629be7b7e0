import { OPERATIONS, type OperationName } from '../operations.js';

/** One budget's configuration: at most `limit` weight in any span of `windowMs`, fixed or sliding. */
export interface BudgetLimit {
  limit: number;
  windowMs: number;
}

/** The two budgets every call is charged against (weex-facts.md, "Rate limits"). */
export interface BudgetLimits {
  /**
   * The exchange's clock, by which weight is counted (SlidingSpan) and fixed windows are aligned (window n covers
   * [n × windowMs, (n + 1) × windowMs)); default `Date.now`. WeexClient passes its clock corrected by the measured
   * server offset.
   */
  now?: () => number;
  /**
   * How much later than its take the exchange may count a call (network latency, the wait between take and send)
   * and how far processes' clocks may disagree: a budget counts windowMs + guardMs; default min(250, windowMs / 10) ms.
   */
  guardMs?: number;
  /** Shared by every account calling from the same IP. */
  ip: BudgetLimit;
  /** Shared by every process using the same account. */
  uid: BudgetLimit;
}

export interface WindowUsage {
  limit: number;
  /** Weight taken in the current span (a window and its guard, ending now). */
  used: number;
  /** Until the span's oldest weight leaves it, freeing some of the limit (0: nothing is taken). */
  msBeforeReset: number;
  /** Until a pause after a 429 ends; 0 when not paused. */
  pausedMs: number;
}

export interface BudgetUsage {
  ip: WindowUsage;
  uid: WindowUsage;
}

/** An operation's weight, taken: spent by the call it is taken for, or given back when that call is not made. */
export interface WeightGrant {
  readonly operation: OperationName;
  /** Returns the weight to the budget (once; weight that has left the span is not given anything back). */
  giveBack(): Promise<void>;
  /**
   * False once the weight was taken longer ago than a call may be sent on it (half the budget's guard): the budget
   * counts a call when its weight is taken, so a call sent much later could land in a window the count did not cover.
   */
  fresh(): boolean;
}

/**
 * The account's request weight budgets. A call waits for weight instead of earning a 429, and a 429 pauses the
 * budget so that every caller sharing it slows down.
 */
export interface WeightBudget {
  /**
   * Waits until the operation's IP and UID weights (from OPERATIONS) both fit, then takes them. With `maxWaitMs`,
   * a caller that would have to wait longer than that is refused at once with BudgetWaitTooLong instead.
   */
  acquire(operation: OperationName, signal?: AbortSignal, maxWaitMs?: number): Promise<WeightGrant>;
  /**
   * Gives back the weight this process took ahead of its calls and has not spent (WeightCredit), so that other
   * processes can spend it: for a caller that is done for now.
   */
  giveBackHeld(): Promise<void>;
  /** Lets nothing through, for every user of the budget, for `ms` or the rest of the current window if longer. */
  pause(ms: number): Promise<void>;
  usage(): Promise<BudgetUsage>;
}

/** The budget would hold the operation back longer than the caller's `maxWaitMs`; nothing was taken. */
export class BudgetWaitTooLong extends Error {
  override readonly name = 'BudgetWaitTooLong';

  constructor(
    readonly operation: OperationName,
    /** How long the budget would have held the call back. */
    readonly waitMs: number,
  ) {
    super(`the weight budget would hold ${operation} back ${waitMs} ms`);
  }
}

/** The weights an operation costs. */
export function weightOf(operation: OperationName): { ip: number; uid: number } {
  const { ipWeight, uidWeight } = OPERATIONS[operation];
  return { ip: ipWeight, uid: uidWeight };
}

/** The weights of the heaviest operation, IP and UID. */
export const HEAVIEST_WEIGHT: Readonly<{ ip: number; uid: number }> = {
  ip: Math.max(...Object.values(OPERATIONS).map((op) => op.ipWeight)),
  uid: Math.max(...Object.values(OPERATIONS).map((op) => op.uidWeight)),
};

/** Refuses limits that some operation could never fit into, which would make its calls wait forever. */
export function assertLimitsFit(limits: BudgetLimits): void {
  const need = HEAVIEST_WEIGHT;
  for (const name of ['ip', 'uid'] as const) {
    const { limit, windowMs } = limits[name];
    if (!Number.isInteger(limit) || limit < need[name]) {
      throw new RangeError(`${name} weight limit must be an integer of at least ${need[name]}, the largest operation weight (got ${limit})`);
    }
    if (!(windowMs > 0)) throw new RangeError(`${name} weight window must be positive (got ${windowMs} ms)`);
  }
}

/** The clock and boundary guard of one window length. */
export function windowClock(limits: BudgetLimits, windowMs: number): { now: () => number; guardMs: number } {
  return { now: limits.now ?? Date.now, guardMs: limits.guardMs ?? Math.min(250, Math.floor(windowMs / 10)) };
}
