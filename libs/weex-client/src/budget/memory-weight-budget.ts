import { RateLimiterMemory } from 'rate-limiter-flexible';
import { BudgetWindow } from './budget-window.js';
import { LimiterWeightBudget } from './limiter-weight-budget.js';
import { assertLimitsFit, type BudgetLimit, type BudgetLimits, windowClock } from './weight-budget.js';

function memoryWindow(name: string, { limit, windowMs }: BudgetLimit, limits: BudgetLimits): BudgetWindow {
  const limiter = new RateLimiterMemory({ keyPrefix: `weex-budget:${name}`, points: limit, duration: windowMs / 1000 });
  return new BudgetWindow(limiter, limit, windowMs, windowClock(limits, windowMs), 'memory');
}

/** A weight budget held in this process's memory (embedded mode: one process per account). */
export function createMemoryWeightBudget(limits: BudgetLimits): LimiterWeightBudget {
  assertLimitsFit(limits);
  return new LimiterWeightBudget(memoryWindow('ip', limits.ip, limits), memoryWindow('uid', limits.uid, limits));
}
