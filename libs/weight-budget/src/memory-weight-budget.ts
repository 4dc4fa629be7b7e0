import { budgetWindows, LinedWeightBudget } from './lined-budget.js';
import type { BudgetLimits, WeightBudget } from './weight-budget.js';

// In this process's memory (embedded mode: one process per account, so no IP share between accounts). Both weights
// or neither in one synchronous step: nothing can take in between.
export function createMemoryWeightBudget(limits: BudgetLimits): WeightBudget {
  const windows = budgetWindows(limits);
  const names = ['ip', 'uid'] as const;
  const spent = { ip: new Map<number, number>(), uid: new Map<number, number>() };
  const pausedUntil = { ip: 0, uid: 0 };
  // Drops the buckets that left the span ending at `now`.
  const read = (name: 'ip' | 'uid', now: number) => {
    const { span } = windows[name];
    for (const bucket of spent[name].keys()) if (bucket < span.firstOf(span.bucketOf(now))) spent[name].delete(bucket);
    return { spent: spent[name], pausedMs: Math.max(0, pausedUntil[name] - now) };
  };
  return new LinedWeightBudget(windows, {
    take: async (weight, buckets, now) => {
      const waits = names.map((name) => Math.max(read(name, now).pausedMs, windows[name].span.waitFor(spent[name], now, weight[name], windows[name].limit)));
      if (Math.max(...waits) > 0) return Math.max(...waits);
      for (const name of names) spent[name].set(buckets[name], (spent[name].get(buckets[name]) ?? 0) + weight[name]);
      return 0;
    },
    giveBack: async (weight, buckets) => {
      for (const name of names) {
        const held = read(name, windows.now()).spent.get(buckets[name]);
        if (held !== undefined) spent[name].set(buckets[name], Math.max(0, held - weight[name]));
      }
    },
    pause: async (ms) => names.forEach((name) => (pausedUntil[name] = Math.max(pausedUntil[name], windows.now() + ms[name]))),
    read: async (now) => ({ ip: read('ip', now), uid: read('uid', now) }),
  });
}
