import { execFileSync, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { BudgetWaitTooLong, type BudgetLimits, type WeightBudget } from '#libs/weex-client';
import { apiKeyHash, createRedisWeightBudget } from '#libs/weex-nest';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';

const ROOT = new URL('..', import.meta.url).pathname;
const API_KEY = 'budget-test-api-key';
// orderInfo costs 2 IP / 3 UID: the UID budget of 15 lets exactly five through per window.
const ORDER_INFO_PER_WINDOW = 5;
const limitsOf = (windowMs: number): BudgetLimits => ({ ip: { limit: 100, windowMs }, uid: { limit: 15, windowMs } });

/** Takes an upload's weight until the budget refuses (at once, no wait), `most` times at most: how many it took. */
async function takeAll(budget: WeightBudget, most = 100): Promise<number> {
  let taken = 0;
  while (
    taken < most &&
    (await budget.acquire('uploadAiLog', undefined, 0).then(
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

  beforeAll(async () => {});

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
    await budget.acquire('orderInfo');
    await budget.pause(1_000);
    const keys = (await connect().keys(`${prefix}:*`)).sort();
    const uid = `${prefix}:weex-budget:uid:${apiKeyHash(API_KEY)}`;
    const ip = `${prefix}:weex-budget:ip:egress-1`;
    expect(keys).toEqual([`${ip}:accounts`, `${ip}:by-account`, `${ip}:pause`, `${ip}:spent`, `${uid}:pause`, `${uid}:spent`]);
    expect(Object.keys(await connect().hgetall(`${ip}:by-account`))).toEqual([expect.stringMatching(new RegExp(`^${apiKeyHash(API_KEY)}\\|\\d+$`))]);
    expect(keys.join()).not.toContain(API_KEY);
  });

  it('two budgets on one account never grant more than the limit together in one window', async () => {
    // A clock that stands still keeps every acquisition in one window; the deadline ends the waiting.
    const limits = { ...limitsOf(60_000), now: () => 1_000_000 * 60_000 + 30_000 };
    const budgets = [0, 1].map(() => createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits }));
    const signal = AbortSignal.timeout(1_500);
    const results = await Promise.allSettled(budgets.flatMap((b) => Array.from({ length: 6 }, () => b.acquire('orderInfo', signal))));
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
    for (let i = 0; i < ORDER_INFO_PER_WINDOW; i++) await a.acquire('orderInfo', undefined, 0);
    t += 9_300;
    await b.acquire('orderInfo', undefined, 0);
    await expect(a.acquire('orderInfo', undefined, 0)).rejects.toThrow(BudgetWaitTooLong);
  });

  it('two budgets on one account spread a burst over time, never above the limit in any window, fixed or sliding', async () => {
    const windowMs = 1_000;
    const budgets = [0, 1].map(() => createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: limitsOf(windowMs) }));
    const times: number[] = [];
    await Promise.all(budgets.flatMap((b) => Array.from({ length: 16 }, () => b.acquire('orderInfo').then(() => times.push(Date.now())))));
    expect(times).toHaveLength(32);
    const perWindow = new Map<number, number>();
    for (const window of times.map((t) => Math.floor(t / windowMs))) perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(ORDER_INFO_PER_WINDOW);
    // No sliding window holds six: any two grants five apart are more than a window apart.
    times.sort((a, b) => a - b);
    for (let i = ORDER_INFO_PER_WINDOW; i < times.length; i++) expect(times[i] - times[i - ORDER_INFO_PER_WINDOW]).toBeGreaterThan(windowMs);
  }, 20_000);

  it('takes both weights or neither: a call the IP window refuses takes nothing from the UID window', async () => {
    // Room for five orderInfo (2 IP each) in the IP window, for many more in the UID window; a window that will not end.
    const limits: BudgetLimits = { ip: { limit: 10, windowMs: 600_000 }, uid: { limit: 100, windowMs: 600_000 } };
    const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits });
    for (let i = 0; i < 5; i++) await budget.acquire('orderInfo');
    await expect(budget.acquire('orderInfo', undefined, 1_000)).rejects.toBeInstanceOf(BudgetWaitTooLong);
    const usage = await budget.usage();
    expect([usage.ip.used, usage.uid.used]).toEqual([10, 15]);
  });

  it('shares the IP budget fairly: an account flooding it leaves another a quarter more than it uses in a span', async () => {
    // Two accounts of one deployment (one IP budget, a UID budget each) on a clock that moves only when told.
    let now = 1_000_000 * 60_000 + 30_000;
    const limits: BudgetLimits = { ip: { limit: 50, windowMs: 60_000 }, uid: { limit: 100, windowMs: 60_000 }, now: () => now };
    const [light, flood] = ['light-account-key', 'flooding-account-key'].map((apiKey) => createRedisWeightBudget({ redis: connect(), prefix, apiKey, limits }));
    // The light account makes a call every 6 s, 5 in all over 24 s (81 buckets of 300 ms); each took a lease of one
    // more (the span was at most half used), and the last lease is still held: its use is 6. Its share holds a quarter
    // more than it would use in a whole span (202 buckets) at that rate, ceil(1.25 × 6 × 202 / 81) = 19, less the 6:
    // 13. The flooder, beyond its fair share (25), takes what that does not hold: 31. The light one makes 14 calls: the
    // 13 left and its lease.
    const light0 = now;
    for (let i = 0; i < 5; i++, now += 6_000) expect(await takeAll(light, 1)).toBe(1);
    now -= 6_000;
    expect(await takeAll(flood)).toBe(31);
    expect(await takeAll(light)).toBe(14);
    // The light one's share still holds 5 (its fair share, 25, less its 20), so the flooder needs 6 to free: not before
    // the light one's first five calls and their lease (6) have left the span, a span (a window, the guard, rounded
    // up to buckets of 300 ms, and one more bucket) after the fifth.
    const spanMs = 60_000 + 300 + 300;
    expect(now - light0).toBe(24_000);
    await expect(flood.acquire('uploadAiLog', undefined, 0)).rejects.toMatchObject({ waitMs: spanMs });
    // Once the span has passed, the light account has no use in it, but it called within five minutes: it holds its
    // reserve (a fiftieth of the limit, and the heaviest call's 10 at least). The flooder takes all but 10.
    now += spanMs;
    expect(await takeAll(flood)).toBe(40);
    expect(await takeAll(light)).toBe(10);
    expect((await flood.usage()).ip.used).toBe(50);
  });

  it('holds a reserve for each account quiet this span, a tenth of the limit at most, and nothing after five minutes', async () => {
    let now = 1_000_000 * 60_000;
    const limits: BudgetLimits = { ip: { limit: 50, windowMs: 60_000 }, uid: { limit: 100, windowMs: 60_000 }, now: () => now };
    const quiet = Array.from({ length: 19 }, (_, i) => createRedisWeightBudget({ redis: connect(), prefix, apiKey: `quiet-account-${i}`, limits }));
    for (const budget of quiet) await budget.acquire('uploadAiLog', undefined, 0);
    now += 100_000;
    // 19 reserves of 10 (the heaviest call) would hold 190; together they hold 10 (a tenth of 50, one reserve at least).
    const alone = createRedisWeightBudget({ redis: connect(), prefix, apiKey: 'the-account-still-calling', limits });
    expect(await takeAll(alone)).toBe(40);
    now += 300_000;
    expect(await takeAll(alone)).toBe(50);
  });

  it('holds its reserve for an account that calls once every two minutes: its heaviest call goes at once behind a flooder', async () => {
    let now = 1_000_000 * 60_000;
    const limits: BudgetLimits = { ip: { limit: 50, windowMs: 60_000 }, uid: { limit: 100, windowMs: 60_000 }, now: () => now };
    const [flood, rare] = ['flooding-account-key', 'rare-account-key'].map((apiKey) => createRedisWeightBudget({ redis: connect(), prefix, apiKey, limits }));
    expect(await takeAll(rare, 1)).toBe(1);
    now += 120_000;
    expect(await takeAll(flood)).toBe(40);
    await expect(rare.acquire('allPositions', undefined, 0)).resolves.toBeDefined();
  });

  describe('callers that wait', () => {
    const spanMs = 60_000 + 300 + 300;
    const waitingKey = () => `${prefix}:weex-budget:ip:default:waiting`;
    let now: number;
    let limits: BudgetLimits;
    beforeEach(() => {
      now = 1_000_000 * 60_000;
      limits = { ip: { limit: 50, windowMs: 60_000 }, uid: { limit: 100, windowMs: 60_000 }, now: () => now };
    });
    /** Starts a wait for allPositions (10 IP) that the budget refuses, until the script has marked it; then gives up. */
    async function markWaiting(budget: WeightBudget): Promise<void> {
      const caller = new AbortController();
      const redis = connect();
      const before = await redis.hlen(waitingKey());
      const waiter = budget.acquire('allPositions', caller.signal, 120_000).catch((error: unknown) => error);
      await waitFor('the waiting mark', async () => ((await redis.hlen(waitingKey())) > before ? true : undefined), 5_000).catch(() => undefined);
      expect(await redis.hlen(waitingKey())).toBe(before + 1);
      caller.abort();
      await waiter;
    }

    it('a caller that will not wait leaves no mark; one that waits has its mark until it is due back, and a second', async () => {
      const [flood, heavy] = ['flooding-account-key', 'heavy-account-key'].map((apiKey) =>
        createRedisWeightBudget({ redis: connect(), prefix, apiKey, limits }),
      );
      expect(await takeAll(flood)).toBe(50);
      await expect(heavy.acquire('allPositions', undefined, 0)).rejects.toBeInstanceOf(BudgetWaitTooLong);
      expect(await connect().hlen(waitingKey())).toBe(0);
      const markedAt = now;
      await markWaiting(heavy);
      // Due back when the flooder's bucket leaves the span (a span after it began), a second more, to the bucket.
      now = markedAt + spanMs + 1_000;
      await flood.acquire('uploadAiLog', undefined, 0);
      expect(await connect().hlen(waitingKey())).toBe(1);
      now = markedAt + spanMs + 1_000 + 600;
      await flood.acquire('uploadAiLog', undefined, 0);
      expect(await connect().hlen(waitingKey())).toBe(0);
    });

    it("holds a waiting caller's ask on top of its account's use, whatever that account's other processes take", async () => {
      const heavyKey = 'heavy-account-key';
      const flood = createRedisWeightBudget({ redis: connect(), prefix, apiKey: 'flooding-account-key', limits });
      const [heavyApi, heavyWorker] = [0, 1].map(() => createRedisWeightBudget({ redis: connect(), prefix, apiKey: heavyKey, limits }));
      expect(await takeAll(flood)).toBe(50);
      await markWaiting(heavyApi);
      // The span frees. The account's worker uploads (and clears a mark of its own, not the API's); the flooder then
      // leaves room for the account's use and the API's 10.
      now += spanMs;
      expect(await takeAll(heavyWorker, 1)).toBe(1);
      await takeAll(flood);
      await expect(heavyApi.acquire('allPositions', undefined, 0)).resolves.toBeDefined();
      expect((await flood.usage()).ip.used).toBeLessThanOrEqual(50);
    });

    it("holds an account's largest ask, not the sum of its processes' asks", async () => {
      const flood = createRedisWeightBudget({ redis: connect(), prefix, apiKey: 'flooding-account-key', limits });
      const processes = [0, 1, 2].map(() => createRedisWeightBudget({ redis: connect(), prefix, apiKey: 'heavy-account-key', limits }));
      expect(await takeAll(flood)).toBe(50);
      for (const budget of processes) await markWaiting(budget);
      now += spanMs;
      expect(await takeAll(flood)).toBe(40);
    });

    it('gives the quiet reserves first and shares the rest: with more seats than heavy calls fit, a heavy call still goes', async () => {
      const quiet = Array.from({ length: 8 }, (_, i) => createRedisWeightBudget({ redis: connect(), prefix, apiKey: `quiet-account-${i}`, limits }));
      for (const budget of quiet) await budget.acquire('uploadAiLog', undefined, 0);
      now += spanMs;
      // 10 seats: the limit over the seats would be 5, below the 10 of allPositions.
      const [flood, heavy] = ['flooding-account-key', 'heavy-account-key'].map((apiKey) =>
        createRedisWeightBudget({ redis: connect(), prefix, apiKey, limits }),
      );
      expect(await takeAll(flood)).toBe(40);
      await expect(heavy.acquire('allPositions', undefined, 0)).resolves.toBeDefined();
    });
  });

  it('holds room for an account refused within its fair share, a new one say, once the span frees', async () => {
    let now = 1_000_000 * 60_000;
    const limits: BudgetLimits = { ip: { limit: 50, windowMs: 60_000 }, uid: { limit: 100, windowMs: 60_000 }, now: () => now };
    const [flood, newcomer] = ['flooding-account-key', 'new-account-key'].map((apiKey) =>
      createRedisWeightBudget({ redis: connect(), prefix, apiKey, limits }),
    );
    expect(await takeAll(flood)).toBe(50);
    expect(await takeAll(newcomer)).toBe(0);
    // The flooder's weight leaves the span: it takes its fair share, then all but the newcomer's reserve.
    now += 60_000 + 300 + 300;
    expect(await takeAll(flood)).toBe(40);
    expect(await takeAll(newcomer)).toBe(10);
  });

  it('drops a field of its hashes that is none of its own, rather than failing every take', async () => {
    const limits = limitsOf(60_000);
    const ip = `${prefix}:weex-budget:ip:default`;
    await connect().hset(`${ip}:by-account`, 'legacy-field', 'x');
    await connect().hset(`${ip}:spent`, 'not-a-bucket', 'x');
    const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits });
    await budget.acquire('orderInfo');
    expect(await connect().hexists(`${ip}:by-account`, 'legacy-field')).toBe(0);
    expect(await connect().hexists(`${ip}:spent`, 'not-a-bucket')).toBe(0);
  });

  it('a pause taken by one process holds back the others', async () => {
    const [a, b] = [0, 1].map(() => createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: limitsOf(1_000) }));
    await a.pause(1_500);
    expect((await b.usage()).uid.pausedMs).toBeGreaterThan(0);
    await b.acquire('orderInfo');
    expect((await b.usage()).uid.pausedMs).toBe(0);
  });

  describe('leases weight ahead while a window has room', () => {
    // A clock that stands still, mid-way through a long window.
    const still = (ip: number, uid: number): BudgetLimits => ({
      ip: { limit: ip, windowMs: 60_000 },
      uid: { limit: uid, windowMs: 60_000 },
      now: () => 1_000_000 * 60_000 + 30_000,
    });

    it('takes a lease with a call, and the calls it covers take nothing more from Redis', async () => {
      const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: still(500, 500) });
      await budget.acquire('orderInfo');
      // orderInfo (2 IP / 3 UID) and a lease of a fiftieth of each limit, 10.
      expect(await usedOf(budget)).toEqual([12, 13]);
      for (let i = 0; i < 3; i++) await budget.acquire('orderInfo');
      expect(await usedOf(budget)).toEqual([12, 13]);
      await budget.acquire('orderInfo');
      expect(await usedOf(budget)).toEqual([24, 26]);
    });

    it('leases nothing that would take a window past half its limit, so every call that fits without leases still fits', async () => {
      // 20 UID fit six orderInfo of 3. Had b leased after a, b's credit would strand a call's weight while a calls on.
      const [a, b] = [0, 1].map(() => createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: still(100, 20) }));
      await a.acquire('orderInfo');
      await b.acquire('orderInfo');
      let granted = 2;
      for (let i = 0; i < 6; i++)
        await a.acquire('orderInfo', undefined, 1_000).then(
          () => granted++,
          () => undefined,
        );
      expect(granted).toBe(6);
      expect((await a.usage()).uid.used).toBe(18);
    });

    it('gives back what it holds ahead, for other processes to spend', async () => {
      const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: still(500, 500) });
      await budget.acquire('orderInfo');
      expect(await usedOf(budget)).toEqual([12, 13]);
      await budget.giveBackHeld();
      expect(await usedOf(budget)).toEqual([2, 3]);
      await budget.giveBackHeld();
      expect(await usedOf(budget)).toEqual([2, 3]);
    });

    it('gives credit left over from an earlier bucket back to Redis, and weight given back late to its bucket', async () => {
      // Buckets of 300 ms (a 200th of the window): the clock moves one at a time.
      let now = 1_000_000 * 60_000 + 30_000;
      const limits: BudgetLimits = { ...still(500, 500), now: () => now };
      const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits });
      const first = await budget.acquire('orderInfo');
      expect(await usedOf(budget)).toEqual([12, 13]);
      now += 300;
      // The lease's 10 / 10 lapsed and went back with this take, which leased again.
      await budget.acquire('orderInfo');
      expect(await usedOf(budget)).toEqual([14, 16]);
      now += 300;
      await first.giveBack();
      expect(await usedOf(budget)).toEqual([12, 13]);
    });

    it('drops its credit when a 429 pauses the budget', async () => {
      const budget = createRedisWeightBudget({ redis: connect(), prefix, apiKey: API_KEY, limits: still(500, 500) });
      await budget.acquire('orderInfo');
      await budget.pause(1_000);
      await expect(budget.acquire('orderInfo', undefined, 5_000)).rejects.toBeInstanceOf(BudgetWaitTooLong);
    });
  });

  it('two real processes never grant more than the limit together in one window', async () => {
    // The children run the built budget; compile it now so that they never run a stale build.
    const sources = ['libs/weex-client/src', 'libs/weex-nest/src', 'libs/common/src'];
    execFileSync(`${ROOT}node_modules/.bin/swc`, [...sources, '-d', 'dist', '--config-file', '.swcrc', '--ignore', '**/*.spec.ts', '--quiet'], { cwd: ROOT });
    const options = {
      budgetModule: `${ROOT}dist/libs/weex-nest/src/redis-weight-budget.js`,
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
