import { RateLimiterMemory } from 'rate-limiter-flexible';
import { BudgetWindow } from './budget-window.js';
import { LimiterWeightBudget, type WeightStore } from './limiter-weight-budget.js';
import { MemorySpent } from './memory-spent.js';
import { SlidingSpan } from './sliding-span.js';
import { assertLimitsFit, type BudgetLimit, type BudgetLimits, windowClock } from './weight-budget.js';

type MemoryBudget = { window: BudgetWindow; spent: MemorySpent };

function memoryBudget(name: string, { limit, windowMs }: BudgetLimit, limits: BudgetLimits): MemoryBudget {
  const pauses = new RateLimiterMemory({ keyPrefix: `weex-budget:${name}`, points: limit, duration: windowMs / 1000 });
  const clock = windowClock(limits, windowMs);
  const spent = new MemorySpent(new SlidingSpan(windowMs, clock.guardMs));
  return { window: new BudgetWindow(pauses, limit, windowMs, clock, 'memory', async (now) => spent.read(now)), spent };
}

/** Both weights or neither, in one synchronous step once the pauses are read: nothing can take in between. */
function memoryStore(ip: MemoryBudget, uid: MemoryBudget): WeightStore {
  const budgets = [ip, uid] as const;
  return {
    take: async (weight) => {
      const pausedMs = Math.max(await ip.window.pausedMs(), await uid.window.pausedMs());
      if (pausedMs > 0) return { wait: pausedMs };
      const points = [weight.ip, weight.uid];
      const now = ip.window.clock.now();
      const waits = budgets.map(({ window, spent }, i) => (points[i] > 0 ? window.span.waitFor(spent.read(now), now, points[i], window.limit) : 0));
      if (Math.max(...waits) > 0) return { wait: Math.max(...waits) };
      const buckets = budgets.map(({ window }) => window.span.bucketOf(now));
      budgets.forEach(({ spent }, i) => spent.add(buckets[i], points[i]));
      return { wait: 0, windows: buckets.map((b) => `b${b}`).join(':') };
    },
    giveBack: async (weight, windows) => {
      const buckets = windows.split(':').map((key) => Number(key.slice(1)));
      const now = ip.window.clock.now();
      ip.spent.giveBack(buckets[0], weight.ip, now);
      uid.spent.giveBack(buckets[1], weight.uid, now);
    },
  };
}

/** A weight budget held in this process's memory (embedded mode: one process per account). */
export function createMemoryWeightBudget(limits: BudgetLimits): LimiterWeightBudget {
  assertLimitsFit(limits);
  const ip = memoryBudget('ip', limits.ip, limits);
  const uid = memoryBudget('uid', limits.uid, limits);
  return new LimiterWeightBudget(ip.window, uid.window, memoryStore(ip, uid));
}
