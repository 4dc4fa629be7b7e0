import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { PG_URL, REDIS_URL } from '../settings.mjs';

/** The queue of libs/queue. */
export const UPLOAD_QUEUE = 'ai-log-upload';

/**
 * A fresh database for one scenario, dropped afterwards (as test/support/temp-database.ts does), on the machine's
 * server or on the one `serverUrl` names.
 */
export async function createTempDatabase(serverUrl = PG_URL) {
  const name = `gateway_bench_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    query: (sql, params) => withClient(url.toString(), (client) => client.query(sql, params)),
    drop: () => withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

export async function withClient(url, use) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A QUEUE_PREFIX of the scenario's own, so that its keys can be counted and removed without touching anyone else's. */
export function benchPrefix() {
  return `bench-${randomBytes(4).toString('hex')}`;
}

export function redisClient() {
  return new Redis(REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: false });
}

/** Removes every Redis key under the prefix (jobs, weight budgets, agent rate limits). */
export async function removePrefix(prefix) {
  const redis = redisClient();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Rows in ai_logs, jobs in the upload queue, and how many of the rows have a wake-up of their account in Redis:
 * "committed and queued", checked log by log.
 */
export async function countCommittedAndQueued(database, prefix) {
  const { rows } = await database.query('SELECT account_id FROM ai_logs');
  const redis = redisClient();
  const queue = new Queue(UPLOAD_QUEUE, { connection: redis, prefix });
  try {
    const jobs = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed');
    // The API wakes each committed log's account: one `drain-account` job per account waits in the queue.
    const woken = new Set();
    for (const job of await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized'])) woken.add(job.data.accountId);
    const jobTotal = Object.values(jobs).reduce((a, b) => a + b, 0);
    return { rows: rows.length, jobs: jobTotal, jobCounts: jobs, rowsWithJob: rows.filter((row) => woken.has(row.account_id)).length };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** How many workers consume the upload queue under the prefix now (they have no port to ask). */
export async function uploadWorkers(prefix) {
  const redis = redisClient();
  const queue = new Queue(UPLOAD_QUEUE, { connection: redis, prefix });
  try {
    return await queue.getWorkersCount();
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** `SELECT version()` and Redis's `INFO server` version, for the report. */
export async function serviceVersions() {
  const postgres = await withClient(PG_URL, (client) => client.query('SELECT version()')).then(
    (r) => r.rows[0].version,
    (e) => `unreachable (${e.message})`,
  );
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  const info = await redis.connect().then(
    () => redis.info('server'),
    (e) => `redis_version:unreachable (${e.message})`,
  );
  redis.disconnect();
  const field = (name) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  return { postgres, redis: `Redis ${field('redis_version')}${field('redis_mode') ? ` (${field('redis_mode')})` : ''}` };
}
