import type { OperationName } from '../operations.js';
import { sleep } from '../backoff.js';
import type { BudgetWindow } from './budget-window.js';
import { type BudgetUsage, BudgetWaitTooLong, type WeightBudget, type WeightGrant, weightOf } from './weight-budget.js';

// Timers may fire a little early: wake just after the computed time.
const WAKE_MARGIN_MS = 5;

export type Weight = { ip: number; uid: number };

/** What a take answers: taken (in the buckets named `b<ip bucket>:b<uid bucket>`), or how long to wait. */
export type Take = { wait: 0; windows: string } | { wait: number; windows?: undefined };

/** Where both weights are taken together (or neither), and given back. */
export interface WeightStore {
  /** `maxWaitMs`: how long the caller waits for it at most (a store may hold room for a caller that waits). */
  take(weight: Weight, maxWaitMs?: number): Promise<Take>;
  /** Gives back weight taken in `windows` (its buckets), to the buckets still in their spans. */
  giveBack(weight: Weight, windows: string): Promise<void>;
  /** Gives back what the store holds for this process ahead of its calls, if anything. */
  giveBackHeld?(): Promise<void>;
}

/**
 * A weight budget over two windows (IP and UID). While the budget has room, callers take weight at once, side by
 * side; a caller that finds it full joins a line, and the line is served one at a time in call order: its first
 * waits until its weights fit in both budgets, the others queue behind it, and newcomers queue too rather than
 * overtake. The store takes both weights or neither, atomically across the processes that share it.
 */
export class LimiterWeightBudget implements WeightBudget {
  private tail: Promise<void> = Promise.resolve();
  private inLine = 0;

  /** `store` takes and gives back the weight; `onPause` drops what it holds ahead (WeightCredit). */
  constructor(
    private readonly ip: BudgetWindow,
    private readonly uid: BudgetWindow,
    private readonly store: WeightStore,
    private readonly onPause: () => void = () => {},
  ) {}

  async acquire(operation: OperationName, signal?: AbortSignal, maxWaitMs = Infinity): Promise<WeightGrant> {
    const weight = weightOf(operation);
    if (this.inLine === 0) {
      signal?.throwIfAborted();
      const askedAt = this.ip.clock.now();
      const take = await this.store.take(weight, maxWaitMs);
      if (take.wait === 0) return this.grant(operation, weight, take.windows!, askedAt);
      if (take.wait > maxWaitMs) throw new BudgetWaitTooLong(operation, take.wait);
    }
    this.inLine++;
    const turn = this.tail.then(() => this.waitAndTake(operation, weight, signal, maxWaitMs));
    this.tail = turn.then(
      () => undefined,
      () => undefined,
    );
    try {
      const { windows, askedAt } = await turn;
      return this.grant(operation, weight, windows, askedAt);
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

  /** `askedAt`: when the take that granted it was asked for, the time its bucket was chosen by. */
  private grant(operation: OperationName, weight: Weight, windows: string, askedAt: number): WeightGrant {
    let given = false;
    const { now, guardMs } = this.ip.clock;
    // From when the take was asked for, not from when the store answered: a slow answer (Redis, up to its command
    // timeout) is part of the delay the guard must cover. Where in its bucket that was, the span's extra bucket covers.
    return {
      operation,
      fresh: () => now() - askedAt <= guardMs / 2,
      giveBack: async () => {
        if (given) return;
        given = true;
        await this.store.giveBack(weight, windows);
      },
    };
  }

  /** Resolves to the windows the weight was taken in, and when that take was asked for. */
  private async waitAndTake(
    operation: OperationName,
    weight: Weight,
    signal: AbortSignal | undefined,
    maxWaitMs: number,
  ): Promise<{ windows: string; askedAt: number }> {
    for (;;) {
      signal?.throwIfAborted();
      const askedAt = this.ip.clock.now();
      const take = await this.store.take(weight, maxWaitMs);
      if (take.wait === 0) return { windows: take.windows!, askedAt };
      if (take.wait > maxWaitMs) throw new BudgetWaitTooLong(operation, take.wait);
      await sleep(take.wait + WAKE_MARGIN_MS, signal);
    }
  }
}
