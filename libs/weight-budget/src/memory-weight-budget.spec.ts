import { createMemoryWeightBudget } from './memory-weight-budget.js';
import { BudgetWaitTooLong, type WeightBudget } from './weight-budget.js';

// The weights of a few exchange operations: orderInfo 2 IP / 3 UID, allPositions 10 / 15, serverTime 1 / 0.
const WEIGHTS = { orderInfo: { ip: 2, uid: 3 }, allPositions: { ip: 10, uid: 15 }, serverTime: { ip: 1, uid: 0 } };
const take = (budget: WeightBudget, label: keyof typeof WEIGHTS, signal?: AbortSignal, maxWaitMs?: number) =>
  budget.acquire(label, WEIGHTS[label], { signal, maxWaitMs });

const WINDOW_MS = 300;
// orderInfo costs 2 IP / 3 UID: five fit in a window of either budget.
const limits = { ip: { limit: 10, windowMs: WINDOW_MS }, uid: { limit: 15, windowMs: WINDOW_MS } };
const windowOf = (t: number) => Math.floor(t / WINDOW_MS);

describe('memory weight budget', () => {
  it('makes a burst wait: at most the limit in any span of a window, served in call order', async () => {
    const budget = createMemoryWeightBudget(limits);
    const granted: Array<{ call: number; window: number; at: number }> = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, call) => take(budget, 'orderInfo').then(() => granted.push({ call, window: windowOf(Date.now()), at: Date.now() }))),
    );
    expect(granted.map((g) => g.call)).toEqual([...Array(12).keys()]);
    const perWindow = new Map<number, number>();
    for (const { window } of granted) perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(5);
    expect(perWindow.size).toBeGreaterThanOrEqual(3);
    // Sliding too: any five grants apart are more than a window apart.
    const times = granted.map((g) => g.at);
    for (let i = 5; i < times.length; i++) expect(times[i] - times[i - 5]).toBeGreaterThan(WINDOW_MS);
  });

  it('counts each call at its operation weights', async () => {
    const budget = createMemoryWeightBudget({ ip: { limit: 20, windowMs: 60_000 }, uid: { limit: 20, windowMs: 60_000 } });
    await take(budget, 'allPositions');
    await take(budget, 'serverTime');
    expect(await budget.usage()).toMatchObject({ ip: { used: 11, limit: 20 }, uid: { used: 15, limit: 20 } });
  });

  it('after a pause lets nothing through until the pause is over', async () => {
    const budget = createMemoryWeightBudget(limits);
    await budget.pause(2 * WINDOW_MS);
    expect((await budget.usage()).uid.pausedMs).toBeGreaterThan(WINDOW_MS);
    await take(budget, 'orderInfo');
    expect((await budget.usage()).uid.pausedMs).toBe(0);
  });

  it('lets a waiting caller give up, and serves the next one', async () => {
    // One long window, so that the sixth call has to wait for the next one.
    const budget = createMemoryWeightBudget({ ip: { limit: 100, windowMs: 60_000 }, uid: { limit: 15, windowMs: 60_000 }, now: () => 30_000 });
    for (let i = 0; i < 5; i++) await take(budget, 'orderInfo');
    const controller = new AbortController();
    const waiting = take(budget, 'orderInfo', controller.signal);
    const next = take(budget, 'serverTime');
    controller.abort();
    await expect(waiting).rejects.toThrow();
    await expect(next).resolves.toMatchObject({ label: 'serverTime' });
  });

  it('takes back the weight a caller gives back, within its window', async () => {
    const budget = createMemoryWeightBudget({ ip: { limit: 100, windowMs: 60_000 }, uid: { limit: 15, windowMs: 60_000 }, now: () => 30_000 });
    const grants = [];
    for (let i = 0; i < 5; i++) grants.push(await take(budget, 'orderInfo'));
    await expect(take(budget, 'orderInfo', undefined, 0)).rejects.toBeInstanceOf(BudgetWaitTooLong);
    await grants[0].giveBack();
    await grants[0].giveBack();
    expect(await budget.usage()).toMatchObject({ ip: { used: 8 }, uid: { used: 12 } });
    await expect(take(budget, 'orderInfo', undefined, 0)).resolves.toMatchObject({ label: 'orderInfo' });
  });

  it('refuses a caller at once when the wait would exceed its maxWaitMs, taking nothing', async () => {
    const budget = createMemoryWeightBudget({ ip: { limit: 100, windowMs: 60_000 }, uid: { limit: 15, windowMs: 60_000 }, now: () => 30_000 });
    for (let i = 0; i < 5; i++) await take(budget, 'orderInfo');
    const refused = take(budget, 'orderInfo', undefined, 1_000);
    await expect(refused).rejects.toBeInstanceOf(BudgetWaitTooLong);
    // Until the weight taken now leaves the span: the window, the guard (250 ms), rounded up to buckets of 300 ms, and one more bucket.
    await expect(refused).rejects.toMatchObject({ label: 'orderInfo', waitMs: 60_600 });
    expect(await budget.usage()).toMatchObject({ ip: { used: 10 }, uid: { used: 15 } });
  });

  it('takes at once, side by side, while there is room; waits when the wait is within maxWaitMs', async () => {
    const roomy = createMemoryWeightBudget({ ip: { limit: 100, windowMs: 60_000 }, uid: { limit: 100, windowMs: 60_000 }, now: () => 30_000 });
    await Promise.all(Array.from({ length: 5 }, () => take(roomy, 'orderInfo', undefined, 0)));
    expect(await roomy.usage()).toMatchObject({ uid: { used: 15 } });

    const budget = createMemoryWeightBudget(limits);
    await budget.pause(1);
    const paused = (await budget.usage()).uid.pausedMs;
    expect(paused).toBeGreaterThan(0);
    await take(budget, 'orderInfo', undefined, paused + 1_000);
    expect((await budget.usage()).uid.pausedMs).toBe(0);
  });

  it('calls weight stale once it was taken more than half the guard ago', async () => {
    let now = 30_000;
    const budget = createMemoryWeightBudget({ ip: { limit: 100, windowMs: 60_000 }, uid: { limit: 15, windowMs: 60_000 }, now: () => now });
    const grant = await take(budget, 'orderInfo');
    now += 125;
    expect(grant.fresh()).toBe(true);
    now += 1;
    expect(grant.fresh()).toBe(false);
  });

  it('times that from when the take was asked for, however late in its bucket (a bucket is longer than half the guard)', async () => {
    let now = 30_250; // 250 ms into a 300 ms bucket (a 200th of the window); the guard is 250 ms
    const budget = createMemoryWeightBudget({ ip: { limit: 100, windowMs: 60_000 }, uid: { limit: 15, windowMs: 60_000 }, now: () => now });
    const grant = await take(budget, 'orderInfo');
    now = 30_375;
    expect(grant.fresh()).toBe(true);
    now = 30_376;
    expect(grant.fresh()).toBe(false);
  });

  it('refuses limits some operation could never fit into', () => {
    expect(() => createMemoryWeightBudget({ ...limits, uid: { limit: 14, windowMs: 1_000 }, heaviest: { ip: 10, uid: 15 } })).toThrow(/at least 15/);
  });
});
