import { randomUUID } from 'node:crypto';
import { AgentRateLimiter } from '#libs/accounts';
import type { GatewayConfig } from '#libs/config';
import { gatewaySuite } from './support/gateway-suite.js';
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
    // A command timeout longer than the pauses below, so that a take that waits for Redis gets Redis's answer.
    const config = { redisUrl: redis.url, queuePrefix: 'rate-test', agentRateLimitPerMin: 6_000, redisCommandTimeoutMs: 10_000 };
    const created = new AgentRateLimiter(config as GatewayConfig);
    const probe = randomUUID();
    await waitFor(
      'the limiter to count in Redis',
      async () => {
        await created.take(probe, 1_000_000);
        return (await redis.command('EXISTS', `rate-test:agent-rate:1000000:${probe}`)) === 1 ? true : undefined;
      },
      10_000,
    );
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

const ADMIN = 'admin-token-for-rate-limit-tests';

/** Through HTTP: the limit counts logs, so that a batch is no way around it. */
describe('agent rate limit counts logs', () => {
  const suite = gatewaySuite({ ADMIN_TOKEN: ADMIN }, { worker: false });

  const keyWithLimit = async (rateLimitPerMin: number): Promise<{ key: string; id: string }> => {
    const res = await fetch(`${suite.harness!.apiUrl}/admin/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ accountId: 'default', label: 'limited', rateLimitPerMin }),
    });
    return (await res.json()) as { key: string; id: string };
  };
  const batch = (key: string, logs: number) =>
    fetch(`${suite.harness!.apiUrl}/v1/ai-logs/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ logs: Array.from({ length: logs }, (_, n) => ({ stage: 's', model: 'm', input: { n }, output: {}, explanation: '' })) }),
    });
  const stored = async (agentKeyId: string) => (await suite.db.query('SELECT count(*)::int AS n FROM ai_logs WHERE agent_key_id = $1', [agentKeyId])).rows[0].n;

  it('counts each log of a batch: one that would go over the limit is refused whole, with Retry-After, and a smaller one still fits', async () => {
    const { key, id } = await keyWithLimit(10);
    expect((await batch(key, 6)).status).toBe(207);
    const refused = await batch(key, 5);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('batch of 5 logs') });
    expect(await stored(id)).toBe(6);
    // 6 logs and the refused request itself: 3 left, a request and its 2 other logs.
    expect((await batch(key, 3)).status).toBe(207);
    expect((await batch(key, 1)).status).toBe(429);
    expect(await stored(id)).toBe(9);
  });

  it('refuses a batch larger than the whole limit without a Retry-After, since waiting would not help', async () => {
    const { key, id } = await keyWithLimit(10);
    const refused = await batch(key, 11);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('send at most 10 at a time') });
    expect(await stored(id)).toBe(0);
    expect((await batch(key, 9)).status).toBe(207);
  });

  it('counts a request to another endpoint as one', async () => {
    const { key } = await keyWithLimit(3);
    const read = () => fetch(`${suite.harness!.apiUrl}/v1/ai-logs/00000000-0000-0000-0000-000000000000`, { headers: { authorization: `Bearer ${key}` } });
    expect([(await read()).status, (await read()).status, (await read()).status, (await read()).status]).toEqual([404, 404, 404, 429]);
  });
});
