import { randomBytes } from 'node:crypto';
import { gatewaySuite } from './support/gateway-suite.js';
import { postLogs } from './support/post-logs.js';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';
import { WorkerProcess } from './support/worker-process.js';

const KEY = 'agent-key-for-drain-cost-tests';
const ADMIN = 'admin-token-for-drain-cost-tests';
/** Logs uploaded since the last VACUUM: each left a dead entry at the front of the account's due index. */
const HISTORY = 30_000;
const BACKLOG = 1_000;
const BACKING_OFF = 3;

/**
 * What a drain and a resume cost PostgreSQL once the history is long: a claim starts past the drainer's last claim, so
 * it does not walk the index entries every earlier upload left dead until VACUUM (PostgreSQL's autovacuum comes to a
 * million-row table every 200,000 updates), and a resume changes only the logs waiting out a retry backoff.
 */
describe('draining after a long history', () => {
  const prefix = `drain-cost-${randomBytes(4).toString('hex')}`;
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, ADMIN_TOKEN: ADMIN, QUEUE_PREFIX: prefix, AGENT_RATE_LIMIT_PER_MIN: '1000000' }, { worker: false });

  const admin = async (path: string, method = 'GET'): Promise<any> =>
    (await fetch(`${suite.harness.apiUrl}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}` } })).json();
  const post = (n: number, stage: string) => postLogs(suite.harness.apiUrl, KEY, n, stage);
  /** Each row's version: an UPDATE gives the row a new xmin. */
  const rowVersions = async () => new Map((await suite.db.query('SELECT id::text, xmin::text FROM ai_logs')).rows.map((r) => [r.id, r.xmin]));
  /** Buffers of the due index read so far, as PostgreSQL counts them for the whole database. */
  const dueIndexBuffers = async (): Promise<number> => {
    await suite.db.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await suite.db.query(`SELECT (idx_blks_hit + idx_blks_read)::int AS n FROM pg_statio_user_indexes WHERE indexrelname = 'ai_logs_due_idx'`);
    return rows[0].n;
  };
  const backends = async (): Promise<Set<number>> =>
    new Set((await suite.db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid));

  it('resumes changing only the retries in backoff, and claims at a cost that does not follow the dead entries', async () => {
    const { db } = suite;
    await db.query('ALTER TABLE ai_logs SET (autovacuum_enabled = false)');
    expect(await admin('/admin/accounts/default/pause', 'POST')).toMatchObject({ paused: true });
    await post(HISTORY, 'history');
    // Uploaded, as a drain would have left them (draining them through the exchange would take the test minutes).
    await db.query(`UPDATE ai_logs SET status = 'uploaded', uploaded_at = now() WHERE stage = 'history'`);
    await post(BACKLOG, 'backlog');
    const backingOff = (
      await db.query(
        `UPDATE ai_logs SET status = 'retrying', attempt_count = 1, next_attempt_at = now() + interval '1 hour'
         WHERE id IN (SELECT id FROM ai_logs WHERE stage = 'backlog' ORDER BY id LIMIT $1) RETURNING id::text`,
        [BACKING_OFF],
      )
    ).rows.map((r) => r.id);

    const before = await rowVersions();
    expect(await admin('/admin/accounts/default/resume', 'POST')).toMatchObject({ paused: false, retriesDueNow: BACKING_OFF });
    const after = await rowVersions();
    const changed = [...after].filter(([id, xmin]) => before.get(id) !== xmin).map(([id]) => id);
    expect(changed.sort()).toEqual(backingOff.sort());

    const apiBackends = await backends();
    const readBefore = await dueIndexBuffers();
    const worker = WorkerProcess.start({
      AGENT_API_KEY: KEY,
      QUEUE_PREFIX: prefix,
      DATABASE_URL: suite.harness.gateway.runtime.databaseUrl,
      REDIS_URL,
      WEEX_BASE_URL: suite.harness.simulator.url,
      LOG_LEVEL: 'warn',
    });
    try {
      await waitFor(
        'the backlog uploaded',
        async () => {
          const { rows } = await db.query(`SELECT count(*)::int AS n FROM ai_logs WHERE stage = 'backlog' AND status = 'uploaded'`);
          return rows[0].n === BACKLOG ? true : undefined;
        },
        120_000,
      );
    } finally {
      await worker.stop('SIGTERM');
    }
    // A backend reports its counters when it exits: once the worker's are gone, pg_stat holds what they read.
    await waitFor('the worker’s connections to close', async () => ([...(await backends())].every((pid) => apiBackends.has(pid)) ? true : undefined));
    const perUpload = ((await dueIndexBuffers()) - readBefore) / BACKLOG;
    const { rows } = await db.query(`SELECT (pg_relation_size('ai_logs_due_idx') / current_setting('block_size')::int)::int AS pages`);
    console.log(`drain-cost: ${perUpload.toFixed(1)} due-index buffers per upload; the index has ${rows[0].pages} pages, nearly all dead entries`);
    // Walking the dead entries costs a claim about the whole index (~200 pages here); a claim past the last costs a
    // few, and each run of the drainer (a second at most) walks them at most twice.
    expect(perUpload).toBeLessThan(rows[0].pages / 5);
  }, 240_000);
});
