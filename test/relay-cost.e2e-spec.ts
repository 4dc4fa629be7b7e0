import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { gatewaySuite } from './support/gateway-suite.js';
import { postLogs } from './support/post-logs.js';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';
import { WorkerProcess } from './support/worker-process.js';

const KEY = 'agent-key-for-relay-cost-tests';
const ADMIN = 'admin-token-for-relay-cost-tests';
const UPLOADED = 20_000;
const WAITING = 20_000;
const RELAY_RUNS = 20;

/**
 * What the relay (every worker, every RELAY_INTERVAL_MS) costs PostgreSQL once the history is long. Its question, which
 * accounts have a log due, used to be answered by walking the account's logs by time through every uploaded one when
 * the statistics said half the logs were due (seen in the growth bench: 330 ms a run at 100,000 logs, every 2 s).
 * It reads the first entry of each account's due index now, whatever the statistics.
 */
describe('the relay after a long history', () => {
  const prefix = `relay-cost-${randomBytes(4).toString('hex')}`;
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, ADMIN_TOKEN: ADMIN, QUEUE_PREFIX: prefix, AGENT_RATE_LIMIT_PER_MIN: '1000000' }, { worker: false });

  const post = (n: number, stage: string) => postLogs(suite.harness.apiUrl, KEY, n, stage);
  /**
   * Buffers read so far of ai_logs' indexes by time and by due order, which a walk to the first due log goes through
   * (the plan PostgreSQL picks says which), as PostgreSQL counts them for the whole database. The audit check, which
   * runs at a worker's start, reads the others.
   */
  const walkBuffers = async (): Promise<number> => {
    // This connection's own counters (its UPDATE, its VACUUM) are flushed once it is idle; the next query sees them.
    await suite.db.query('SELECT pg_stat_force_next_flush()');
    await suite.db.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await suite.db.query(
      `SELECT sum(idx_blks_hit + idx_blks_read)::int AS n FROM pg_statio_user_indexes
       WHERE indexrelname IN ('ai_logs_due_idx', 'ai_logs_account_id_received_at_idx', 'ai_logs_status_next_attempt_at_idx')`,
    );
    return rows[0].n;
  };
  const backends = async (): Promise<Set<number>> =>
    new Set((await suite.db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid));

  it('reads a few index entries a run, not the uploaded logs before the waiting ones', async () => {
    const { db } = suite;
    await db.query('ALTER TABLE ai_logs SET (autovacuum_enabled = false)');
    await fetch(`${suite.harness.apiUrl}/admin/accounts/default/pause`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
    await post(UPLOADED, 'history');
    await db.query(`UPDATE ai_logs SET status = 'uploaded', uploaded_at = now() WHERE stage = 'history'`);
    await post(WAITING, 'backlog');
    // The statistics a drain halfway through leaves: half the logs uploaded, the later half due.
    await db.query('VACUUM ANALYZE ai_logs');
    // Resumed now: a resume makes the retries in backoff due.
    await fetch(`${suite.harness.apiUrl}/admin/accounts/default/resume`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
    // Then every waiting log in a retry's backoff, so that no run finds one due and nothing is uploaded; the
    // statistics stay as they were (VACUUM without ANALYZE), and no dead entry is left for a run to walk.
    await db.query(`UPDATE ai_logs SET status = 'retrying', next_attempt_at = now() + interval '1 hour' WHERE stage = 'backlog'`);
    await db.query('VACUUM ai_logs');

    const apiBackends = await backends();
    const before = await walkBuffers();
    const startedAt = Date.now();
    const worker = WorkerProcess.start({
      AGENT_API_KEY: KEY,
      QUEUE_PREFIX: prefix,
      DATABASE_URL: suite.harness.gateway.runtime.databaseUrl,
      REDIS_URL,
      WEEX_BASE_URL: suite.harness.simulator.url,
      RELAY_INTERVAL_MS: '100',
      LOG_LEVEL: 'warn',
    });
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const periodic = new Queue('periodic', { connection: redis, prefix });
    const relayRuns = async () => (await periodic.getJobs(['completed'])).filter((job) => job.name === 'relay' && (job.processedOn ?? 0) >= startedAt).length;
    let runs: number;
    try {
      await waitFor('the relay to run', async () => ((await relayRuns()) >= RELAY_RUNS ? true : undefined), 60_000);
      await worker.stop('SIGTERM');
      runs = await relayRuns();
    } finally {
      await worker.stop('SIGTERM');
      await periodic.close();
      redis.disconnect();
    }
    // A backend reports its counters when it exits: once the worker's are gone, pg_stat holds what they read.
    await waitFor('the worker’s connections to close', async () => ([...(await backends())].every((pid) => apiBackends.has(pid)) ? true : undefined));
    const perRun = ((await walkBuffers()) - before) / runs;
    const { rows } = await db.query(`SELECT (pg_relation_size('ai_logs_account_id_received_at_idx') / current_setting('block_size')::int)::int AS pages`);
    console.log(
      `relay-cost: ${perRun.toFixed(1)} buffers of the time and due indexes per relay run (${runs} runs); the index by time has ${rows[0].pages} pages`,
    );
    expect(await db.query(`SELECT count(*)::int AS n FROM ai_logs WHERE status = 'uploaded' AND stage = 'backlog'`)).toMatchObject({ rows: [{ n: 0 }] });
    // What the worker read of them over its life, its start included, shared by the runs: a walk to the first due log
    // through the uploaded ones costs a run about the index by time (and a page of the heap for each log); the first
    // entry of the due index, a few pages.
    expect(perRun).toBeLessThan(rows[0].pages / 10);
  }, 300_000);
});
