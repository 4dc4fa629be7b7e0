import { type BudgetUsage, type OperationName, type WeightBudget, weightOf, type WindowUsage } from '#libs/weex-client';

/**
 * How long the account's budget would hold `operation` back now (0: it fits), read from its usage: a pause after a
 * 429, or the rest of a window too full for the operation's weight. Calls queued in this process are not counted.
 */
export function budgetWaitMs(usage: BudgetUsage, operation: OperationName): number {
  const weight = weightOf(operation);
  const wait = (window: WindowUsage, points: number) => Math.max(window.pausedMs, points > 0 && window.used + points > window.limit ? window.msBeforeReset : 0);
  return Math.max(wait(usage.ip, weight.ip), wait(usage.uid, weight.uid));
}

/** The same, or undefined when the budget cannot be read (its store is down: the call itself will say so). */
export async function currentBudgetWaitMs(budget: WeightBudget, operation: OperationName): Promise<number | undefined> {
  try {
    return budgetWaitMs(await budget.usage(), operation);
  } catch {
    return undefined;
  }
}
