import type { OperationName } from '../operations.js';
import { sleep } from '../backoff.js';
import type { BudgetWindow } from './budget-window.js';
import { type BudgetUsage, BudgetWaitTooLong, type WeightBudget, type WeightGrant, weightOf } from './weight-budget.js';

// Timers may fire a little early: wake just after the computed time.
const WAKE_MARGIN_MS = 5;

export type Weight = { ip: number; uid: number };

/** What a take answers: taken (in the windows named `w<ip window>:w<uid window>`), or how long to wait. */
export type Take = { wait: 0; windows: string } | { wait: number; windows?: undefined };

/** Where both weights are taken together (or neither), and given back. */
export interface WeightStore {
  take(weight: Weight): Promise<Take>;
  /** Gives back weight taken in `windows`; nothing once either of them has ended. */
  giveBack(weight: Weight, windows: string): Promise<void>;
  /** Gives back what the store holds for this process ahead of its calls, if anything. */
  giveBackHeld?(): Promise<void>;
}

/**
 * A weight budget over two windows (IP and UID). While the budget has room, callers take weight at once, side by
 * side; a caller that finds it full joins a line, and the line is served one at a time in call order: its first
 * waits until its weights fit in both budgets, the others queue behind it, and newcomers queue too rather than
 * overtake. Across processes the store decides atomically; a weight taken in one budget but refused by the other is
 * given back.
 */
export class LimiterWeightBudget implements WeightBudget {
  private tail: Promise<void> = Promise.resolve();
  private inLine = 0;

  private readonly store: WeightStore;

  /**
   * `store` replaces the take through the two windows' limiters, where the store can do both at once; `onPause`
   * drops what it holds ahead (WeightCredit).
   */
  constructor(
    private readonly ip: BudgetWindow,
    private readonly uid: BudgetWindow,
    store?: WeightStore,
    private readonly onPause: () => void = () => {},
  ) {
    this.store = store ?? { take: (weight) => this.tryTake(weight), giveBack: (weight, windows) => this.giveBackToWindows(weight, windows) };
  }

  async acquire(operation: OperationName, signal?: AbortSignal, maxWaitMs = Infinity): Promise<WeightGrant> {
    const weight = weightOf(operation);
    if (this.inLine === 0) {
      signal?.throwIfAborted();
      const take = await this.store.take(weight);
      if (take.wait === 0) return this.grant(operation, weight, take.windows!);
      if (take.wait > maxWaitMs) throw new BudgetWaitTooLong(operation, take.wait);
    }
    this.inLine++;
    const turn = this.tail.then(() => this.waitAndTake(operation, weight, signal, maxWaitMs));
    this.tail = turn.then(
      () => undefined,
      () => undefined,
    );
    try {
      return this.grant(operation, weight, await turn);
    } finally {
      this.inLine--;
    }
  }

  async giveBackHeld(): Promise<void> {
    await this.store.giveBackHeld?.();
  }

  async pause(ms: number): Promise<void> {
    this.onPause();
    await Promise.all([this.ip.pause(ms), this.uid.pause(ms)]);
  }

  async usage(): Promise<BudgetUsage> {
    const [ip, uid] = await Promise.all([this.ip.usage(), this.uid.usage()]);
    return { ip, uid };
  }

  private grant(operation: OperationName, weight: Weight, windows: string): WeightGrant {
    let given = false;
    return {
      operation,
      giveBack: async () => {
        if (given) return;
        given = true;
        await this.store.giveBack(weight, windows);
      },
    };
  }

  /** Resolves to the windows the weight was taken in. */
  private async waitAndTake(operation: OperationName, weight: Weight, signal: AbortSignal | undefined, maxWaitMs: number): Promise<string> {
    for (;;) {
      signal?.throwIfAborted();
      const take = await this.store.take(weight);
      if (take.wait === 0) return take.windows!;
      if (take.wait > maxWaitMs) throw new BudgetWaitTooLong(operation, take.wait);
      await sleep(take.wait + WAKE_MARGIN_MS, signal);
    }
  }

  /**
   * Takes both weights, or neither. One round trip: the pauses are read while the weights are taken, and what was
   * taken during a pause (or by one window while the other refused) is given back.
   */
  private async tryTake(weight: Weight): Promise<Take> {
    const [ipPause, uidPause, ip, uid] = await Promise.all([this.ip.pausedMs(), this.uid.pausedMs(), this.ip.take(weight.ip), this.uid.take(weight.uid)]);
    const wait = Math.max(ipPause, uidPause, ip.wait, uid.wait);
    if (wait > 0) {
      await Promise.all([ip.wait === 0 ? this.ip.giveBack(ip.key, weight.ip) : undefined, uid.wait === 0 ? this.uid.giveBack(uid.key, weight.uid) : undefined]);
      return { wait };
    }
    return { wait: 0, windows: `${ip.key ?? this.ip.slot().key}:${uid.key ?? this.uid.slot().key}` };
  }

  private async giveBackToWindows(weight: Weight, windows: string): Promise<void> {
    const [ipKey, uidKey] = windows.split(':');
    if (ipKey !== this.ip.slot().key || uidKey !== this.uid.slot().key) return;
    await Promise.all([this.ip.giveBack(ipKey, weight.ip), this.uid.giveBack(uidKey, weight.uid)]);
  }
}
