import pg from 'pg';
import { type ApiProcess, apiProcessSuite } from './support/api-process.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-abandoned-reads';
const ADMIN = 'admin-token-for-abandoned-reads';
const LOG = '{"orderId":"737185556881998184","stage":"decision","model":"m1","input":{"p":1},"output":{"a":"BUY"},"explanation":"why"}';

describe('a read its client gave up on, or one that runs too long, stops in PostgreSQL', () => {
  let db: pg.Client;
  let locker: pg.Client;
  // Before the suite's own afterAll, which drops the database.
  afterAll(async () => {
    await locker?.end();
    await db?.end();
  });
  const suite = apiProcessSuite();
  let api: ApiProcess;

  beforeAll(async () => {
    api = await suite.start({ AGENT_API_KEY: KEY, ADMIN_TOKEN: ADMIN });
    [db, locker] = [new pg.Client({ connectionString: suite.env.DATABASE_URL }), new pg.Client({ connectionString: suite.env.DATABASE_URL })];
    await Promise.all([db.connect(), locker.connect()]);
  }, 60_000);

  const lockerPid = () => (locker as unknown as { processID: number }).processID;

  /** The statements of other connections (the APIs') that wait for a lock; `like` narrows them by their text. */
  const waiting = async (like = '%') => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), $1)
         AND state = 'active' AND wait_event_type = 'Lock' AND query ILIKE $2`,
      [lockerPid(), like],
    );
    return rows[0].n as number;
  };

  /** Holds ai_logs locked (ACCESS EXCLUSIVE) while `work` runs: every statement that reads or writes it waits. */
  async function withLogsLocked(work: () => Promise<void>): Promise<void> {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE ai_logs IN ACCESS EXCLUSIVE MODE');
    try {
      await work();
    } finally {
      await locker.query('ROLLBACK');
    }
  }

  it('a coverage request whose client disconnects cancels its statements, and the next one is answered', async () => {
    await withLogsLocked(async () => {
      const client = new AbortController();
      const request = fetch(`${api.url}/v1/compliance/coverage`, { headers: { authorization: `Bearer ${KEY}` }, signal: client.signal }).catch(
        (error: unknown) => error,
      );
      // Two of its four statements over ai_logs (the counts, the list, the fills, the unmatched logs): the window reads'
      // connections (API_WINDOW_READ_CONNECTIONS); the other two wait for one.
      await waitFor('the coverage statements to wait for the lock', async () => ((await waiting()) === 2 ? true : undefined));
      client.abort();
      expect(await request).toMatchObject({ name: 'AbortError' });
      await waitFor('no statement of the request left', async () => ((await waiting()) === 0 ? true : undefined), 5_000);
    });
    const res = await fetch(`${api.url}/v1/compliance/coverage`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
  });

  it('a burst of slow coverage requests leaves the rest of the pool to other reads and the readiness probe', async () => {
    const posted = await fetch(`${api.url}/v1/ai-logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: LOG,
    });
    const { id } = (await posted.json()) as { id: string };
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE exchange_orders, exchange_trades, exchange_plan_orders IN ACCESS EXCLUSIVE MODE');
    // Six requests of four statements each would hold every connection of the pool (10) waiting for the lock.
    const burst = Array.from({ length: 6 }, () => fetch(`${api.url}/v1/compliance/coverage`, { headers: { authorization: `Bearer ${KEY}` } }));
    try {
      await waitFor('the window reads to wait for the lock', async () => ((await waiting()) === 2 ? true : undefined));
      expect((await fetch(`${api.url}/health/ready`)).status).toBe(200);
      const log = await fetch(`${api.url}/v1/ai-logs/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(log.status).toBe(200);
      expect(await waiting()).toBe(2);
    } finally {
      await locker.query('ROLLBACK');
    }
    expect((await Promise.all(burst)).map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('a statement an operator cancels in PostgreSQL answers 503 QUERY_CANCELLED, not a 500', async () => {
    await withLogsLocked(async () => {
      const request = fetch(`${api.url}/admin/logs`, { headers: { authorization: `Bearer ${ADMIN}` } });
      await waitFor('the admin list to wait for the lock', async () => ((await waiting()) === 1 ? true : undefined));
      await db.query(`SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`, [
        lockerPid(),
      ]);
      const res = await request;
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ statusCode: 503, code: 'QUERY_CANCELLED' });
    });
    expect(api.logLines().filter((line) => line.level >= 50)).toEqual([]);
  });

  it('every read runs under API_STATEMENT_TIMEOUT_MS and answers 503 QUERY_TIMEOUT past it, while ingest waits and commits', async () => {
    const timed = await suite.start({ AGENT_API_KEY: KEY, ADMIN_TOKEN: ADMIN, API_STATEMENT_TIMEOUT_MS: '300' });
    let ingest: Promise<Response> | undefined;
    await withLogsLocked(async () => {
      ingest = fetch(`${timed.url}/v1/ai-logs`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: LOG });
      await waitFor('the ingest commit to wait for the lock', async () => ((await waiting('%INSERT INTO ai_logs%')) === 1 ? true : undefined));
      // Window reads on DatabasePool, and an admin list through Prisma.
      for (const [path, token] of [
        ['/v1/compliance/coverage', KEY],
        ['/v1/audit/report', KEY],
        ['/admin/logs', ADMIN],
      ]) {
        const res = await fetch(`${timed.url}${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(15_000) });
        expect([path, res.status]).toEqual([path, 503]);
        expect(await res.json()).toMatchObject({ statusCode: 503, code: 'QUERY_TIMEOUT', message: expect.stringContaining('API_STATEMENT_TIMEOUT_MS') });
      }
      // Every read stopped; the ingest commit, which waited longer than any of them, still waits: it has no timeout.
      expect(await waiting()).toBe(1);
      expect(await waiting('%INSERT INTO ai_logs%')).toBe(1);
    });
    expect((await ingest!).status).toBe(202);
    expect(timed.logLines().filter((line) => line.level >= 50)).toEqual([]);
    expect(timed.logLines().filter((line) => line.msg.includes('API_STATEMENT_TIMEOUT_MS')).length).toBe(3);
  });
});
