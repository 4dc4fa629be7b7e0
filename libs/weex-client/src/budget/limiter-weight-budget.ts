import type { OperationName } from '../operations.js';
import { sleep } from '../backoff.js';
import type { BudgetWindow } from './budget-window.js';
import { type BudgetUsage, type WeightBudget, weightOf } from './weight-budget.js';

// Timers may fire a little early: wake just after the computed time.
const WAKE_MARGIN_MS = 5;

/**
 * A weight budget over two windows (IP and UID). Acquisitions in one process are served one at a time, in call
 * order: the first waits until its weights fit in both budgets, the others queue behind it. Across processes the
 * store decides atomically; a weight taken in one budget but refused by the other is given back.
 */
export class LimiterWeightBudget implements WeightBudget {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly ip: BudgetWindow,
    private readonly uid: BudgetWindow,
  ) {}

  acquire(operation: OperationName, signal?: AbortSignal): Promise<void> {
    const turn = this.tail.then(() => this.waitAndTake(operation, signal));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  async pause(ms: number): Promise<void> {
    await Promise.all([this.ip.pause(ms), this.uid.pause(ms)]);
  }

  async usage(): Promise<BudgetUsage> {
    const [ip, uid] = await Promise.all([this.ip.usage(), this.uid.usage()]);
    return { ip, uid };
  }

  private async waitAndTake(operation: OperationName, signal?: AbortSignal): Promise<void> {
    const weight = weightOf(operation);
    for (;;) {
      signal?.throwIfAborted();
      const wait = await this.tryTake(weight);
      if (wait === 0) return;
      await sleep(wait + WAKE_MARGIN_MS, signal);
    }
  }

  /** Takes both weights, or neither; returns 0 on success, else how long to wait. */
  private async tryTake(weight: { ip: number; uid: number }): Promise<number> {
    const waits = await Promise.all([this.ip.waitFor(weight.ip), this.uid.waitFor(weight.uid)]);
    if (Math.max(...waits) > 0) return Math.max(...waits);
    // Both at once (one round trip instead of two); a weight taken in one window while the other refused is given back.
    const [ip, uid] = await Promise.all([this.ip.take(weight.ip), this.uid.take(weight.uid)]);
    if (ip.wait > 0 || uid.wait > 0) {
      await Promise.all([ip.wait === 0 ? this.ip.giveBack(ip.key, weight.ip) : undefined, uid.wait === 0 ? this.uid.giveBack(uid.key, weight.uid) : undefined]);
    }
    return Math.max(ip.wait, uid.wait);
  }
}
