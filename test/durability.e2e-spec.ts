import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QueueName } from '#libs/queue';
import { startHarness, type Harness } from './support/gateway-harness.js';
import { PrivateRedis } from './support/private-redis.js';
import { createTempDatabase } from './support/temp-database.js';
import { waitFor } from './support/wait-for.js';

const json = (res: Response): Promise<any> => res.json();
const KEY = 'agent-key-for-durability-tests';
const log = (n: number) => `{"stage":"s","model":"m","input":{"n":${n}},"output":{},"explanation":""}`;

/** A gateway on a Redis of the test's own (so that it may be flushed or stopped) and a fresh database. */
async function withGateway(body: (h: Harness, redis: PrivateRedis) => Promise<void>, options: { worker?: boolean } = {}) {
  const redis = await PrivateRedis.start();
  const db = await createTempDatabase();
  const harness = await startHarness({ DATABASE_URL: db.url, REDIS_URL: redis.url, AGENT_API_KEY: KEY, RELAY_INTERVAL_MS: '200' }, options);
  try {
    await body(harness, redis);
  } finally {
    await harness.close();
    await redis.stop();
    await db.drop();
  }
}

async function post(h: Harness, body: string): Promise<string> {
  const res = await fetch(`${h.apiUrl}/v1/ai-logs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body,
  });
  expect(res.status).toBe(202);
  return (await json(res)).id;
}

async function allUploaded(h: Harness, ids: string[]): Promise<void> {
  const statusOf = async (id: string) => (await json(await fetch(`${h.apiUrl}/v1/ai-logs/${id}`, { headers: { authorization: `Bearer ${KEY}` } }))).status;
  await waitFor('every log to be uploaded', async () => ((await Promise.all(ids.map(statusOf))).every((s) => s === 'uploaded') ? true : undefined), 60_000);
}

describe('durability: PostgreSQL is the truth, the queue only wakes workers', () => {
  it('uploads every log even when Redis loses all its data right after they were accepted', async () => {
    await withGateway(
      async (h, redis) => {
        // No worker yet, so that the jobs are still in Redis when it is flushed.
        const ids = await Promise.all(Array.from({ length: 30 }, (_, n) => post(h, log(n))));
        await redis.command('FLUSHALL');
        const { startWorker } = await import('../apps/worker/src/start-worker.js');
        const worker = await startWorker(h.gateway.config, h.gateway.runtime);
        try {
          await allUploaded(h, ids);
        } finally {
          await worker.close();
        }
      },
      { worker: false },
    );
  }, 90_000);

  it('queues one wake-up per account however many logs wait, and the relay queues it again only once it is lost', async () => {
    await withGateway(
      async (h, redis) => {
        const { AiLogRelay } = await import('../libs/ai-log/src/index.js');
        const relay = h.gateway.api.app.get(AiLogRelay);
        const queue = h.gateway.api.app.get<Queue>(getQueueToken(QueueName.AiLogUpload));
        const jobs = async () => Object.values(await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).reduce((a, b) => a + b, 0);
        await Promise.all(Array.from({ length: 20 }, (_, n) => post(h, log(n))));
        expect(await jobs()).toBe(1);
        // The account is due, and its wake-up still waits in the queue: waking it again adds nothing.
        expect(await relay.wakeDue(0)).toBe(1);
        expect(await jobs()).toBe(1);
        await redis.command('FLUSHALL');
        expect(await jobs()).toBe(0);
        expect(await relay.wakeDue(0)).toBe(1);
        expect(await jobs()).toBe(1);
      },
      { worker: false },
    );
  }, 60_000);

  it('uploads every log when Redis is flushed in the middle of a run', async () => {
    await withGateway(async (h, redis) => {
      const ids: string[] = [];
      for (let n = 0; n < 60; n++) {
        ids.push(await post(h, log(n)));
        if (n === 30) await redis.command('FLUSHALL');
      }
      await allUploaded(h, ids);
    });
  }, 90_000);

  it('keeps answering 202 while Redis is down, and uploads everything once it is back', async () => {
    await withGateway(async (h, redis) => {
      await redis.stop();
      const started = Date.now();
      const ids: string[] = [];
      for (let n = 0; n < 20; n++) ids.push(await post(h, log(1000 + n)));
      const ingestMs = Date.now() - started;
      await redis.resume();
      await allUploaded(h, ids);
      console.log(`redis-down: 20 logs accepted in ${ingestMs} ms with Redis stopped, all uploaded after it returned`);
    });
  }, 90_000);
});
