import type { OperationName } from '../operations.js';
import { sleep } from '../backoff.js';
import type { BudgetWindow } from './budget-window.js';
import { type BudgetUsage, BudgetWaitTooLong, type WeightBudget, weightOf } from './weight-budget.js';

// Timers may fire a little early: wake just after the computed time.
const WAKE_MARGIN_MS = 5;

export type Weight = { ip: number; uid: number };

/** Takes both weights or neither, in one step of the store; resolves to 0 when taken, else how long to wait. */
export type TakeBoth = (weight: Weight) => Promise<number>;

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

  private readonly takeBoth: TakeBoth;

  /**
   * `takeBoth` replaces the take through the two windows' limiters, where the store can do both at once; `onPause`
   * drops what it holds ahead (WeightCredit).
   */
  constructor(
    private readonly ip: BudgetWindow,
    private readonly uid: BudgetWindow,
    takeBoth?: TakeBoth,
    private readonly onPause: () => void = () => {},
  ) {
    this.takeBoth = takeBoth ?? ((weight) => this.tryTake(weight));
  }

  async acquire(operation: OperationName, signal?: AbortSignal, maxWaitMs = Infinity): Promise<void> {
    const weight = weightOf(operation);
    if (this.inLine === 0) {
      signal?.throwIfAborted();
      const wait = await this.takeBoth(weight);
      if (wait === 0) return;
      if (wait > maxWaitMs) throw new BudgetWaitTooLong(operation, wait);
    }
    this.inLine++;
    const turn = this.tail.then(() => this.waitAndTake(operation, weight, signal, maxWaitMs));
    this.tail = turn.catch(() => undefined);
    try {
      await turn;
    } finally {
      this.inLine--;
    }
  }

  async pause(ms: number): Promise<void> {
    this.onPause();
    await Promise.all([this.ip.pause(ms), this.uid.pause(ms)]);
  }

  async usage(): Promise<BudgetUsage> {
    const [ip, uid] = await Promise.all([this.ip.usage(), this.uid.usage()]);
    return { ip, uid };
  }

  private async waitAndTake(operation: OperationName, weight: Weight, signal: AbortSignal | undefined, maxWaitMs: number): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const wait = await this.takeBoth(weight);
      if (wait === 0) return;
      if (wait > maxWaitMs) throw new BudgetWaitTooLong(operation, wait);
      await sleep(wait + WAKE_MARGIN_MS, signal);
    }
  }

  /**
   * Takes both weights, or neither; returns 0 on success, else how long to wait. One round trip: the pauses are read
   * while the weights are taken, and what was taken during a pause (or by one window while the other refused) is
   * given back.
   */
  private async tryTake(weight: Weight): Promise<number> {
    const [ipPause, uidPause, ip, uid] = await Promise.all([this.ip.pausedMs(), this.uid.pausedMs(), this.ip.take(weight.ip), this.uid.take(weight.uid)]);
    const wait = Math.max(ipPause, uidPause, ip.wait, uid.wait);
    if (wait > 0) {
      await Promise.all([ip.wait === 0 ? this.ip.giveBack(ip.key, weight.ip) : undefined, uid.wait === 0 ? this.uid.giveBack(uid.key, weight.uid) : undefined]);
    }
    return wait;
  }
}
