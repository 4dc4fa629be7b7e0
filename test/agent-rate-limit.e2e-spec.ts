import { randomUUID } from 'node:crypto';
import { AgentRateLimiter } from '#libs/accounts';
import type { GatewayConfig } from '#libs/config';
import { PrivateRedis } from './support/private-redis.js';
import { waitFor } from './support/wait-for.js';

/**
 * AgentRateLimiter against a Redis of the test's own, which it pauses (CLIENT PAUSE) to tell a request that waited
 * for Redis's answer from one that did not.
 */
describe('agent rate limiter', () => {
  let redis: PrivateRedis;
  let limiter: AgentRateLimiter;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    limiter = await connectedLimiter();
  });

  /** A limiter on the test's Redis, once it counts there: until its connection is up it counts in memory (the insurance). */
  async function connectedLimiter(): Promise<AgentRateLimiter> {
    const created = new AgentRateLimiter({ redisUrl: redis.url, queuePrefix: 'rate-test', agentRateLimitPerMin: 6_000 } as GatewayConfig);
    const probe = randomUUID();
    await waitFor('the limiter to count in Redis', async () => {
      await created.take(probe, 1_000_000);
      return (await redis.command('EXISTS', `rate-test:agent-rate:1000000:${probe}`)) === 1 ? true : undefined;
    }, 10_000);
    return created;
  }

  /** The scripts Redis has run: rate-limiter-flexible counts with one EVALSHA per consume. */
  async function countCommands(): Promise<number> {
    const stats = String(await redis.command('INFO', 'commandstats'));
    return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
  }

  afterAll(async () => {
    await limiter?.onApplicationShutdown();
    await redis?.stop();
  });

  it('limits a caller that waits for each answer exactly, and says when to ask again', async () => {
    const key = randomUUID();
    for (let i = 0; i < 5; i++) expect(await limiter.take(key, 5)).toBeUndefined();
    const waitMs = await limiter.take(key, 5);
    expect(waitMs).toBeGreaterThan(0);
    expect(waitMs).toBeLessThanOrEqual(60_000);
  });

  it('lets a request far from its limit through without waiting for Redis, and waits near it: never past the limit in one process', async () => {
    const key = randomUUID();
    expect(await limiter.take(key, 100)).toBeUndefined();
    // Redis answers nothing for 2 s: a take that waits for it cannot settle meanwhile.
    await redis.command('CLIENT', 'PAUSE', '2000', 'ALL');
    const takes = Array.from({ length: 100 }, () => ({ settled: false, result: limiter.take(key, 100) }));
    for (const take of takes) void take.result.then(() => (take.settled = true));
    // One turn of the event loop: every take that did not wait for Redis has settled by then.
    await new Promise((resolve) => setImmediate(resolve));
    const settledEarly = takes.filter((t) => t.settled).length;
    // 99 left by the first answer, a tenth of the limit kept back: 89 went on at once, the rest wait for their answer.
    expect(settledEarly).toBe(89);
    expect(takes.slice(0, settledEarly).every((t) => t.settled)).toBe(true);
    const results = await Promise.all(takes.map((t) => t.result));
    expect(results.filter((r) => r === undefined)).toHaveLength(99);
    expect(results.at(-1)).toBeGreaterThan(0);
  });

  it('counts every request it let through, in Redis', async () => {
    const key = randomUUID();
    await limiter.take(key, 1_000);
    for (let i = 0; i < 50; i++) expect(await limiter.take(key, 1_000)).toBeUndefined();
    await waitFor('51 requests counted', async () => ((await redis.command('GET', `rate-test:agent-rate:1000:${key}`)) === '51' ? true : undefined), 5_000);
  });

  it('counts the requests let through over several turns of the event loop together', async () => {
    const key = randomUUID();
    await limiter.take(key, 1_000);
    const before = await countCommands();
    for (let i = 0; i < 20; i++) {
      expect(await limiter.take(key, 1_000)).toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await waitFor('21 requests counted', async () => ((await redis.command('GET', `rate-test:agent-rate:1000:${key}`)) === '21' ? true : undefined), 5_000);
    // One command per turn would be 20; they gather for a few ms instead.
    expect((await countCommands()) - before).toBeLessThan(20);
  });

  it('counts what it let through before it closes', async () => {
    const closing = await connectedLimiter();
    const key = randomUUID();
    for (let i = 0; i < 6; i++) expect(await closing.take(key, 1_000)).toBeUndefined();
    await closing.onApplicationShutdown();
    expect(await redis.command('GET', `rate-test:agent-rate:1000:${key}`)).toBe('6');
  });

  it('a limit of 0 counts nothing', async () => {
    const key = randomUUID();
    for (let i = 0; i < 3; i++) expect(await limiter.take(key, 0)).toBeUndefined();
  });
});
