import { execFileSync, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as delay, setImmediate as turn } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { HEAVIEST_WEIGHT, type OperationName, weightOf } from '#libs/weex-client';
import { apiKeyHash, budgetWindows, type BudgetLimits, BudgetWaitTooLong, createRedisWeightBudget, type WeightBudget } from '#libs/weight-budget';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';

const ROOT = new URL('..', import.meta.url).pathname;
const API_KEY = 'budget-test-api-key';
// orderInfo costs 2 IP / 3 UID: the UID budget of 15 lets exactly five through per window.
const ORDER_INFO_PER_WINDOW = 5;
const limitsOf = (windowMs: number): BudgetLimits => ({ ip: { limit: 100, windowMs }, uid: { limit: 15, windowMs }, heaviest: HEAVIEST_WEIGHT });
/** An operation's weights, taken as the client takes them. */
const take = (budget: WeightBudget, operation: OperationName, signal?: AbortSignal, maxWaitMs?: number) =>
  budget.acquire(operation, weightOf(operation), { signal, maxWaitMs });

/** Takes an upload's weight until the budget refuses (at once, no wait), `most` times at most: how many it took. */
async function takeAll(budget: WeightBudget, most = 100): Promise<number> {
  let taken = 0;
  while (
    taken < most &&
    (await take(budget, 'uploadAiLog', undefined, 0).then(
      () => true,
      () => false,
    ))
  )
    taken++;
  return taken;
}

const usedOf = async (budget: WeightBudget) => {
  const { ip, uid } = await budget.usage();
  return [ip.used, uid.used];
};

describe('Redis weight budget shared by several processes', () => {
  let prefix: string;
  const connections: Redis[] = [];
  const connect = () => {
    const redis = new Redis(REDIS_URL);
    connections.push(redis);
    return redis;
  };

  beforeEach(() => {
    prefix = `budget-test-${randomUUID()}`;
  });

  afterEach(async () => {
    const redis = connect();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await Promise.all(connections.splice(0).map((c) => c.quit()));
  });

  it('keys the UID budget by a hash of the API key, never the key itself', async () => {
    const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, ipName: 'egress-1', limits: limitsOf(60_000) });
    await take(budget, 'orderInfo');
    await budget.pause(1_000);
    const keys = (await connect().keys(`${prefix}:*`)).sort();
    const uid = `${prefix}:weex-budget:uid:${apiKeyHash(API_KEY)}`;
    const ip = `${prefix}:weex-budget:ip:egress-1`;
    expect(keys).toEqual([`${ip}:by-account`, `${ip}:pause`, `${ip}:spent`, `${uid}:pause`, `${uid}:spent`]);
    expect(Object.keys(await connect().hgetall(`${ip}:by-account`))).toEqual([expect.stringMatching(new RegExp(`^${apiKeyHash(API_KEY)}\\|\\d+$`))]);
    expect(keys.join()).not.toContain(API_KEY);
  });

  it('two budgets on one account never grant more than the limit together in one window', async () => {
    // A clock that stands still keeps every acquisition in one window; the deadline ends the waiting.
    const limits = { ...limitsOf(60_000), now: () => 1_000_000 * 60_000 + 30_000 };
    const budgets = [0, 1].map(() => createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits }));
    const signal = AbortSignal.timeout(1_500);
    const results = await Promise.allSettled(budgets.flatMap((b) => Array.from({ length: 6 }, () => take(b, 'orderInfo', signal))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(ORDER_INFO_PER_WINDOW);
    expect((await budgets[0].usage()).uid.used).toBe(15);
  });

  it('a process whose clock runs ahead does not make the others forget what they took', async () => {
    // A takes the whole UID limit at t; B, its clock a second ahead, takes at t + 9.3 s by A's clock: B's span has left
    // A's buckets behind (a skew beyond the guard is the clock sync's to fix), but it must not drop them, and A, whose
    // clock is right, must still be refused until its own weight leaves its span.
    const windowMs = 10_000;
    let t = 1_000_000 * windowMs + 100;
    const a = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: { ...limitsOf(windowMs), now: () => t } });
    const b = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: { ...limitsOf(windowMs), now: () => t + 1_000 } });
    for (let i = 0; i < ORDER_INFO_PER_WINDOW; i++) await take(a, 'orderInfo', undefined, 0);
    t += 9_300;
    await take(b, 'orderInfo', undefined, 0);
    await expect(take(a, 'orderInfo', undefined, 0)).rejects.toThrow(BudgetWaitTooLong);
  });

  it('two budgets on one account spread a burst over time, never above the limit in any window, fixed or sliding', async () => {
    const windowMs = 1_000;
    const budgets = [0, 1].map(() => createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: limitsOf(windowMs) }));
    const times: number[] = [];
    await Promise.all(budgets.flatMap((b) => Array.from({ length: 16 }, () => take(b, 'orderInfo').then(() => times.push(Date.now())))));
    expect(times).toHaveLength(32);
    const perWindow = new Map<number, number>();
    for (const window of times.map((t) => Math.floor(t / windowMs))) perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(ORDER_INFO_PER_WINDOW);
    // No sliding window holds six: any two grants five apart are more than a window apart.
    times.sort((a, b) => a - b);
    for (let i = ORDER_INFO_PER_WINDOW; i < times.length; i++) expect(times[i] - times[i - ORDER_INFO_PER_WINDOW]).toBeGreaterThan(windowMs);
  }, 20_000);

  it('takes both weights or neither: a call the IP window refuses takes nothing from the UID window', async () => {
    // Room for five orderInfo (2 IP each) in the IP window (11, less 1 kept free for another account), for many more in
    // the UID window; a window that will not end.
    const limits: BudgetLimits = { ip: { limit: 11, windowMs: 600_000 }, uid: { limit: 100, windowMs: 600_000 } };
    const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits });
    for (let i = 0; i < 5; i++) await take(budget, 'orderInfo');
    await expect(take(budget, 'orderInfo', undefined, 1_000)).rejects.toBeInstanceOf(BudgetWaitTooLong);
    const usage = await budget.usage();
    expect([usage.ip.used, usage.uid.used]).toEqual([10, 15]);
  });

  describe('shares the IP budget fairly between accounts', () => {
    // Limit 50, so the reserve is the heaviest call's 10 (more than a fiftieth); a clock that moves only when told.
    // A span is the window, the guard (250 ms) rounded up to buckets of 300 ms, and one bucket more.
    const spanMs = 60_000 + 300 + 300;
    let now: number;
    let limits: BudgetLimits;
    const account = (apiKey: string) => createRedisWeightBudget({ redis: connect(), prefix, apiKey, limits });
    beforeEach(() => {
      now = 1_000_000 * 60_000 + 30_000;
      limits = { ip: { limit: 50, windowMs: 60_000 }, uid: { limit: 100, windowMs: 60_000 }, heaviest: HEAVIEST_WEIGHT, now: () => now };
    });

    it('lets an account alone use all but 1/100 of the limit, left free for a newcomer', async () => {
      const [flood, newcomer] = [account('flooding-account-key'), account('new-account-key')];
      expect(await takeAll(flood)).toBe(49);
      expect(await takeAll(newcomer)).toBe(1);
    });

    it('leaves 1/60 of the limit free for each other account that called (a call a second at 500 per 10 s), 1/100 for a newcomer', async () => {
      limits = { ...limits, ip: { limit: 600, windowMs: 60_000 }, uid: { limit: 1000, windowMs: 60_000 } };
      const [light, flood, newcomer] = [account('light-account-key'), account('flooding-account-key'), account('new-account-key')];
      expect(await takeAll(flood, 1000)).toBe(594); // alone: all but 6 (1/100), left for a newcomer
      expect(await takeAll(newcomer, 1000)).toBe(6);
      now += 2 * spanMs;
      expect(await takeAll(light, 1)).toBe(1);
      expect(await takeAll(flood, 1000)).toBe(589); // beyond its share: all but 10 (1/60) for the light account
      expect(await takeAll(light, 1000)).toBe(10);
    });

    it('leaves the others room, and the reserve for one that waits', async () => {
      const [light, flood] = [account('light-account-key'), account('flooding-account-key')];
      expect(await takeAll(light, 1)).toBe(1);
      // Within its share (25 of 50) the flooder takes what is there; beyond it, all but 1/60 of the limit: 1.
      expect(await takeAll(flood)).toBe(48);
      expect(await takeAll(light)).toBe(1);
      expect((await flood.usage()).ip.used).toBe(50);
      // The light account's last call, refused, waits until it is due back, a span on: the flooder leaves it the
      // reserve (the heaviest call, 10) free.
      now += spanMs;
      expect(await takeAll(flood)).toBe(40);
      expect(await takeAll(light)).toBe(10);
      now += 2 * spanMs;
      expect(await takeAll(flood)).toBe(49);
    });

    it('lets an account within its share take any room, and one beyond it only what leaves the others room', async () => {
      const accounts = ['a-key', 'b-key', 'c-key'].map(account);
      // Three accounts: shares of 16.
      for (const budget of accounts) expect(await takeAll(budget, 1)).toBe(1);
      expect(await takeAll(accounts[0])).toBe(45); // to 48 in all: 50 less 1 for each of the others
      expect(await takeAll(accounts[1])).toBe(2); // within its share, the rest
      // The second and the third, refused, wait until the span has passed: then the first leaves each its reserve (10)
      // free, and the third takes its share.
      await expect(take(accounts[2], 'uploadAiLog', undefined, 0)).rejects.toBeInstanceOf(BudgetWaitTooLong);
      now += spanMs;
      expect(await takeAll(accounts[0])).toBe(30);
      expect(await takeAll(accounts[2])).toBe(16);
    });

    it('serves an account that calls once a minute within a span, however hard another floods', async () => {
      const [flood, rare] = [account('flooding-account-key'), account('rare-account-key')];
      expect(await takeAll(flood)).toBe(49);
      // Refused for a span, it counts as calling until then: the flooder leaves its reserve free from then on.
      await expect(take(rare, 'allPositions', undefined, 0)).rejects.toMatchObject({ waitMs: spanMs });
      now += spanMs;
      expect(await takeAll(flood)).toBe(40);
      await expect(take(rare, 'allPositions', undefined, 0)).resolves.toBeDefined();
      expect((await flood.usage()).ip.used).toBe(50);
    });

    it('holds nothing for an account once its calls have left the span', async () => {
      const [flood, rare] = [account('flooding-account-key'), account('rare-account-key')];
      expect(await takeAll(rare, 1)).toBe(1);
      now += spanMs;
      expect(await takeAll(flood)).toBe(49);
    });
  });

  it('serves a rare caller within a span behind flooders taking as fast as they can (real clock)', async () => {
    // 1 s windows: a guard of 100 ms, buckets of 5 ms, a span of 1,105 ms.
    const windowMs = 1_000;
    const limits: BudgetLimits = { ip: { limit: 50, windowMs }, uid: { limit: 500, windowMs }, heaviest: HEAVIEST_WEIGHT };
    const { bucketMs, buckets } = budgetWindows(limits).ip.span;
    const spanMs = bucketMs * buckets;
    const flood = createRedisWeightBudget({ redis: connect(), prefix, apiKey: 'flooding-account-key', limits });
    // The rare caller's budget reads the real clock too; the test keeps its last reading, the time of the last take.
    let askedAt = 0;
    const rare = createRedisWeightBudget({ redis: connect(), prefix, apiKey: 'rare-account-key', limits: { ...limits, now: () => (askedAt = Date.now()) } });
    // The flooder first spreads its 49 (all but a newcomer's 1/100) over a span, so that its weight leaves the span a
    // little at a time, then takes as fast as it can in 8 lanes: each unit freed is taken again at once, and only the
    // fairness rule (the reserve left free for a caller that waits) can let the rare call's 10 through.
    for (let i = 0; i < 49; i++) {
      await take(flood, 'uploadAiLog');
      await delay(spanMs / 50);
    }
    const stop = new AbortController();
    const lanes = Array.from({ length: 8 }, async () => {
      while (!stop.signal.aborted)
        await take(flood, 'uploadAiLog', stop.signal).then(
          () => undefined,
          () => undefined,
        );
    });
    try {
      await waitFor('the flooders to fill the span', async () => ((await flood.usage()).ip.used >= 49 ? true : undefined));
      // What the budget states: the rare call must wait, a span at most.
      const refusal = await take(rare, 'allPositions', undefined, 0).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(BudgetWaitTooLong);
      const { waitMs } = refusal as BudgetWaitTooLong;
      expect(waitMs).toBeGreaterThan(0);
      expect(waitMs).toBeLessThanOrEqual(spanMs);
      // Once that wait has passed, counted by the budget's clock from the take it answered (a timer may fire a little
      // early, and the reserve is held only to the bucket the wait ends in), it is served at once.
      const dueAt = askedAt + waitMs;
      await delay(dueAt - Date.now() - 2);
      while (Date.now() < dueAt) await turn();
      await expect(take(rare, 'allPositions', undefined, 0)).resolves.toBeDefined();
    } finally {
      stop.abort();
      await Promise.all(lanes);
    }
  }, 20_000);

  it('drops a field of its hashes that is none of its own, rather than failing every take', async () => {
    const limits = limitsOf(60_000);
    const ip = `${prefix}:weex-budget:ip:default`;
    await connect().hset(`${ip}:by-account`, 'legacy-field', 'x');
    await connect().hset(`${ip}:by-account`, 'abc|not-a-bucket', 'x');
    const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits });
    await take(budget, 'orderInfo');
    expect(await connect().hexists(`${ip}:by-account`, 'legacy-field')).toBe(0);
    expect(await connect().hexists(`${ip}:by-account`, 'abc|not-a-bucket')).toBe(0);
  });

  it('keeps the IP weight by bucket, written for the version before, trimmed to a few spans', async () => {
    let now = 1_000_000 * 1_000;
    const huge = { limit: 1_000_000, windowMs: 1_000 };
    const budget = createRedisWeightBudget({
      redis: connect(),
      prefix,
      apiKey: API_KEY,
      limits: { ip: huge, uid: huge, heaviest: HEAVIEST_WEIGHT, now: () => now },
    });
    const buckets = budgetWindows({ ip: huge, uid: huge }).ip.span.buckets;
    for (let i = 0; i < 6 * buckets; i++, now += 5) await take(budget, 'orderInfo');
    expect(await connect().hlen(`${prefix}:weex-budget:ip:default:spent`)).toBeLessThanOrEqual(4 * buckets + 1);
  });

  it('a pause taken by one process holds back the others, and a shorter pause does not cut it short', async () => {
    const [a, b] = [0, 1].map(() => createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: limitsOf(1_000) }));
    await a.pause(1_500);
    await b.pause(10);
    expect((await b.usage()).uid.pausedMs).toBeGreaterThan(1_000);
    await take(b, 'orderInfo');
    expect((await b.usage()).uid.pausedMs).toBe(0);
  });

  it('gives back unspent weight to the buckets it was taken in, once', async () => {
    const limits = { ...limitsOf(60_000), now: () => 1_000_000 * 60_000 + 30_000 };
    const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits });
    const grant = await take(budget, 'orderInfo');
    await take(budget, 'orderInfo');
    expect(await usedOf(budget)).toEqual([4, 6]);
    await grant.giveBack();
    await grant.giveBack();
    expect(await usedOf(budget)).toEqual([2, 3]);
    expect(await connect().hgetall(`${prefix}:weex-budget:ip:default:by-account`)).toEqual({
      [`${apiKeyHash(API_KEY)}|${(1_000_000 * 60_000 + 30_000) / 300}`]: '2',
    });
  });

  it('two real processes never grant more than the limit together in one window', async () => {
    // The children run the built budget; compile it now so that they never run a stale build.
    const sources = ['libs/weight-budget/src'];
    execFileSync(`${ROOT}node_modules/.bin/swc`, [...sources, '-d', 'dist', '--config-file', '.swcrc', '--ignore', '**/*.spec.ts', '--quiet'], { cwd: ROOT });
    const options = {
      budgetModule: `${ROOT}dist/libs/weight-budget/src/redis-weight-budget.js`,
      redisUrl: REDIS_URL,
      prefix,
      apiKey: API_KEY,
      limits: limitsOf(60_000),
      now: 1_000_000 * 60_000 + 30_000,
      calls: 6,
      deadlineMs: 1_500,
    };
    const children = [0, 1].map(() => fork(`${ROOT}test/support/budget-process.mjs`, [JSON.stringify(options)], { stdio: 'inherit' }));
    await Promise.all(children.map((c) => once(c, 'message')));
    const reports = children.map((c) => once(c, 'message').then(([m]) => (m as { granted: number }).granted));
    for (const child of children) child.send('go');
    const granted = await Promise.all(reports);
    expect(granted.reduce((a, b) => a + b)).toBe(ORDER_INFO_PER_WINDOW);
    await Promise.all(children.map((c) => (c.exitCode === null ? once(c, 'exit') : undefined)));
  }, 20_000);
});
