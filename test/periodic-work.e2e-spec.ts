import { Redis } from 'ioredis';
import { type Harness, startHarness } from './support/gateway-harness.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';
import { WorkerProcess } from './support/worker-process.js';

const ADMIN = 'admin-token-for-periodic-work-tests';
const KEY = 'agent-key-for-periodic-work-tests';
const UID = '8000000001';
const SCHEDULERS = ['audit-check', 'audit-checkpoint', 'evidence-sync', 'hold-probe', 'idempotency-purge', 'relay', 'trace-decisions'];
const LOG = '{"stage":"decision","model":"m","input":{},"output":{},"explanation":"after the flush"}';

const json = (res: Response): Promise<any> => res.json();

/** When each evidence stream of the account last started a run, as the API reports it (null: never). */
async function lastRuns(harness: Harness): Promise<Record<string, string | null>> {
  const res = await fetch(`${harness.apiUrl}/v1/evidence/sync`, { headers: { authorization: `Bearer ${harness.agentKey}` } });
  const body = await json(res);
  return Object.fromEntries(body.streams.map((s: { stream: string; lastRunAt: string | null }) => [s.stream, s.lastRunAt]));
}

/** Deletes every key of this prefix (and only those: the Redis is shared), as a Redis that came back empty would have. */
async function emptyQueue(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

describe('periodic work on the queue (job schedulers), on Redis', () => {
  // An hour between evidence syncs: a run within the test is the one at start. Retries 3 s apart, so that the test
  // can empty the queue while a log waits for its retry.
  const env = {
    ADMIN_TOKEN: ADMIN,
    AGENT_API_KEY: KEY,
    EVIDENCE_SYNC_INTERVAL_MS: '3600000',
    UPLOAD_BACKOFF_MS: '3000',
    UPLOAD_BACKOFF_MAX_MS: '3000',
    RELAY_INTERVAL_MS: '300',
  };
  const suite = gatewaySuite(env);

  it("runs a fresh worker's first evidence sync at start, not an interval later", async () => {
    const runs = await waitFor('the first evidence sync', async () => {
      const last = await lastRuns(suite.harness);
      return Object.values(last).every((at) => at !== null) ? last : undefined;
    });
    expect(Object.keys(runs).sort()).toEqual(['orders', 'plan_orders', 'trades']);
  });

  it('lists every scheduler in the queue dashboard', async () => {
    const get = async (path: string) =>
      json(await fetch(`${suite.harness.apiUrl}/admin/queues/api/${path}`, { headers: { authorization: `Bearer ${ADMIN}` } }));
    const { queues } = await get('queues');
    const periodic = queues.find((q: { name: string }) => q.name === 'periodic');
    expect(periodic).toMatchObject({ jobSchedulerCount: SCHEDULERS.length });
    const { schedulers } = await get('job-schedulers');
    expect(
      schedulers
        .filter((s: { queueName: string }) => s.queueName === 'periodic')
        .map((s: { id: string }) => s.id)
        .sort(),
    ).toEqual(SCHEDULERS);
    expect(schedulers.find((s: { id: string }) => s.id === 'relay')).toMatchObject({ every: 300 });
  });

  it('puts the schedulers back after the queue lost everything, and the relay uploads a log whose wake-up was lost', async () => {
    const { simulator, gateway } = suite.harness;
    const status = async () => (await suite.db.query(`SELECT status FROM ai_logs WHERE explanation = 'after the flush'`)).rows[0]?.status as string | undefined;
    simulator.state.faults.set({ accounts: { [UID]: { errorRate: 1 } }, paths: ['/capi/v3/order/uploadAiLog'] });
    try {
      const res = await fetch(`${suite.harness.apiUrl}/v1/ai-logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: LOG,
      });
      expect(res.status).toBe(202);
      // The attempt failed, and the log waits for its retry: its only wake-up is a delayed job in Redis.
      await waitFor('the first attempt to fail', async () => ((await status()) === 'retrying' ? true : undefined));
      expect(await emptyQueue(gateway.config.queuePrefix)).toBeGreaterThan(0);
    } finally {
      simulator.state.faults.clear();
    }
    // Only the relay can find the log now, and only once its scheduler is back.
    await waitFor('the log to be uploaded', async () => ((await status()) === 'uploaded' ? true : undefined), 30_000);
    await waitFor('every scheduler to be back', async () => {
      const redis = new Redis(REDIS_URL);
      try {
        const ids = await redis.zrange(`${gateway.config.queuePrefix}:periodic:repeat`, 0, -1);
        return ids.length === SCHEDULERS.length ? ids.sort() : undefined;
      } finally {
        redis.disconnect();
      }
    });
  }, 60_000);
});

describe('periodic work across two worker processes', () => {
  const EVERY_MS = 2_000;
  const env = { AGENT_API_KEY: KEY, EVIDENCE_SYNC_INTERVAL_MS: String(EVERY_MS) };
  const suite = gatewaySuite(env, { worker: false });

  it('runs one evidence sync per interval, not one per worker', async () => {
    const { simulator, gateway } = suite.harness;
    // Every start of a stream's run, recorded by the database itself.
    await suite.db.query(`
      CREATE TABLE test_stream_runs (stream text, at timestamptz);
      CREATE FUNCTION test_record_run() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO test_stream_runs VALUES (NEW.stream, NEW.last_run_at); RETURN NEW; END $$;
      CREATE TRIGGER test_record_run AFTER INSERT OR UPDATE OF last_run_at ON sync_streams FOR EACH ROW EXECUTE FUNCTION test_record_run();`);
    const workerEnv = {
      ...env,
      DATABASE_URL: gateway.runtime.databaseUrl,
      REDIS_URL,
      QUEUE_PREFIX: gateway.config.queuePrefix,
      WEEX_BASE_URL: simulator.url,
      WEEX_SPOT_BASE_URL: simulator.spotUrl,
      LOG_LEVEL: 'warn',
    };
    const workers = [WorkerProcess.start(workerEnv), WorkerProcess.start(workerEnv)];
    try {
      const RUNS = 6;
      const runs = await waitFor(
        `${RUNS} evidence sync runs`,
        async () => {
          const { rows } = await suite.db.query(`SELECT extract(epoch FROM at) * 1000 AS ms FROM test_stream_runs WHERE stream = 'trades' ORDER BY at`);
          return rows.length >= RUNS ? rows.map((r) => Number(r.ms)) : undefined;
        },
        60_000,
      );
      // The scheduler's runs are at least an interval apart (a run may start a little late, never early); two workers
      // each on a timer of their own would make about two runs per interval.
      const span = runs[runs.length - 1] - runs[0];
      console.log(`periodic-work: ${runs.length} evidence sync runs by two workers over ${span} ms (interval ${EVERY_MS} ms)`);
      expect(runs.length - 1).toBeLessThanOrEqual(span / EVERY_MS + 0.5);
    } finally {
      await Promise.all(workers.map((w) => w.stop('SIGTERM')));
    }
    expect(workers.map((w) => w.log).join('\n')).not.toMatch(/"level":(50|60)/);
  }, 90_000);
});

describe('periodic work on the PostgreSQL queue backend (embedded, as `npm start` runs it)', () => {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness({ EVIDENCE_SYNC_INTERVAL_MS: '3600000' });
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('runs the first evidence sync at start', async () => {
    await waitFor('the first evidence sync', async () => {
      const last = await lastRuns(harness!);
      return Object.values(last).length === 3 && Object.values(last).every((at) => at !== null) ? true : undefined;
    });
  }, 30_000);
});
