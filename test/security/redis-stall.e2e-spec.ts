import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { defaultSimAccounts, type RunningSimulator, startSimulator } from '../../apps/exchange-sim/src/index.js';
import { PrivateRedis } from '../support/private-redis.js';
import { createTempDatabase } from '../support/temp-database.js';
import { waitFor } from '../support/wait-for.js';
import { API_MAIN, WorkerProcess } from '../support/worker-process.js';

const ADMIN = 'admin-token-for-redis-stall-tests';
const KEY = 'agent-key-for-redis-stall-tests';
/** The stall lasts until every request posted during it is answered, or this long. */
const STALL_AT_MOST_MS = 30_000;

interface Answer {
  status: number;
  ids: string[];
}

/**
 * The production layout (API and worker processes) on a Redis of the test's own, which the test stops (SIGSTOP: the
 * connections stay open and nothing answers) and kills. Ingest must answer without waiting on Redis, the worker
 * must carry on when Redis answers again, and every line either process writes must be JSON.
 */
describe('a Redis that stalls or goes away', () => {
  let redis: PrivateRedis;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let db: pg.Client;
  let simulator: RunningSimulator;
  let api: WorkerProcess;
  let worker: WorkerProcess;
  let apiUrl: string;
  let dataDir: string;
  let posted = 0;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    database = await createTempDatabase();
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    // 20 uploads a second: a backlog takes a few seconds, so the stall can catch the worker in the middle of one.
    const budget = { limit: 40, windowMs: 2_000 };
    simulator = await startSimulator({ accounts: defaultSimAccounts(), budgets: { ipLimit: budget.limit, uidLimit: budget.limit, windowMs: budget.windowMs } });
    dataDir = mkdtempSync(join(tmpdir(), 'redis-stall-'));
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: `stall-${randomBytes(4).toString('hex')}`,
      DATA_DIR: dataDir,
      PORT: '0',
      ADMIN_TOKEN: ADMIN,
      AGENT_API_KEY: KEY,
      WEEX_BASE_URL: simulator.url,
      WEEX_SPOT_BASE_URL: simulator.spotUrl,
      WEEX_IP_WEIGHT_LIMIT: String(budget.limit),
      WEEX_UID_WEIGHT_LIMIT: String(budget.limit),
      WEEX_WEIGHT_WINDOW_MS: String(budget.windowMs),
      EVIDENCE_SYNC_INTERVAL_MS: '0',
      UPLOAD_BACKOFF_MS: '50',
      UPLOAD_CLAIM_MS: '1500',
      RELAY_INTERVAL_MS: '300',
      LOG_LEVEL: 'log',
    };
    api = WorkerProcess.start(env, API_MAIN);
    apiUrl = await waitFor('the API to listen', async () => /listening on (http:\/\/[^\s"]+)/.exec(api.log)?.[1], 60_000);
    worker = WorkerProcess.start(env);
  }, 90_000);

  afterAll(async () => {
    redis?.thaw();
    await api?.stop('SIGTERM');
    await worker?.stop('SIGTERM');
    await redis?.stop();
    await db?.end();
    await simulator?.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const post = async (key: string, logs: number): Promise<Answer> => {
    const log = () => `{"stage":"decision","model":"m","input":{"n":${posted++}},"output":{},"explanation":""}`;
    const batch = logs > 1;
    const res = await fetch(`${apiUrl}/v1/ai-logs${batch ? '/batch' : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: batch ? `{"logs":[${Array.from({ length: logs }, log).join(',')}]}` : log(),
    });
    const body = (await res.json()) as { id?: string; results?: Array<{ id: string }> };
    return { status: res.status, ids: body.results?.map((r) => r.id) ?? (body.id ? [body.id] : []) };
  };

  const newAgentKey = async (): Promise<string> => {
    const res = await fetch(`${apiUrl}/admin/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ accountId: 'default', label: 'stall test' }),
    });
    return ((await res.json()) as { key: string }).key;
  };

  const everyLogUploaded = (what: string) =>
    waitFor(
      what,
      async () => {
        const { rows } = await db.query(`SELECT count(*) FILTER (WHERE status = 'uploaded')::int AS uploaded, count(*)::int AS total FROM ai_logs`);
        return rows[0].total === posted && rows[0].uploaded === posted ? true : undefined;
      },
      120_000,
    );

  /** Each line both processes wrote that is not one JSON object: Nest's text, ioredis's "Unhandled error event". */
  const linesNotJson = (): string[] =>
    [api, worker]
      .flatMap((p) => p.log.split('\n'))
      .filter((line) => {
        if (line.trim() === '') return false;
        try {
          return typeof JSON.parse(line) !== 'object';
        } catch {
          return true;
        }
      });

  it('answers every ingest request while Redis is stalled without waiting for it, and uploads every log once it answers', async () => {
    const freshKey = await newAgentKey();
    expect((await post(KEY, 200)).status).toBe(207);
    await waitFor('the worker to be uploading', async () => (simulator.state.uploads().length >= 20 ? true : undefined), 60_000);

    redis.freeze();
    // Single logs and a batch from a key that has posted before, and the first requests of a key that has not: its
    // first count is one the rate limiter waits for.
    const requests = [...Array.from({ length: 40 }, () => post(KEY, 1)), post(KEY, 20), ...Array.from({ length: 10 }, () => post(freshKey, 1))];
    let answeredWhileStalled = 0;
    const all = Promise.all(requests.map((request) => request.finally(() => answeredWhileStalled++)));
    await Promise.race([all, sleep(STALL_AT_MOST_MS, undefined, { ref: false })]);
    const ready = await fetch(`${apiUrl}/health/ready`);
    const answeredBeforeThaw = answeredWhileStalled;
    redis.thaw();
    expect(answeredBeforeThaw).toBe(requests.length);
    const answers = await all;

    expect(answers.map((a) => a.status)).toEqual([...Array(40).fill(202), 207, ...Array(10).fill(202)]);
    const ids = answers.flatMap((a) => a.ids);
    expect(ids).toHaveLength(70);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM ai_logs WHERE id = ANY($1::uuid[])', [ids]);
    expect(rows[0].n).toBe(70);
    // The API noticed, and said so: it did not wait on the queue's store.
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { failed: string[] }).failed).toEqual(['queue']);

    await everyLogUploaded('every log to be uploaded by the same worker process');
    const uncertain = Number((await db.query(`SELECT count(*) FROM upload_attempts WHERE outcome = 'uncertain'`)).rows[0].count);
    const bodies = new Set(simulator.state.uploads().map((u) => u.rawBody));
    expect(simulator.state.uploads().length - bodies.size).toBeLessThanOrEqual(uncertain);
    expect(bodies.size).toBe(posted);
    expect(linesNotJson()).toEqual([]);
  }, 180_000);

  it('logs the lost connection as JSON, answers while Redis is gone, and uploads once it is back', async () => {
    const logged = [api.log.length, worker.log.length];
    await redis.stop();
    // Posted once a process has tried to reconnect and been refused: Redis is known to be gone, not just restarting.
    const refused = () => [api, worker].some((p, i) => p.log.slice(logged[i]).includes('ECONNREFUSED'));
    await waitFor('a process to find Redis gone', async () => (refused() ? true : undefined), 30_000);
    const answers = await Promise.all([...Array.from({ length: 10 }, () => post(KEY, 1)), post(KEY, 10)]);
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(202), 207]);
    await redis.resume();
    await everyLogUploaded('every log to be uploaded after Redis is back');
    expect(linesNotJson()).toEqual([]);
  }, 180_000);
});
