import pg from 'pg';
import { fillHistory } from '../bench/support/coverage-history.mjs';
import { apiProcessSuite } from './support/api-process.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-coverage-cost';
const DAY = 86_400_000;
const NOW = Date.now();
// 80,000 logs over 240 days, an order every 100 logs: 800 orders, 23 of them (and 2,333 logs) in the last 7 days.
const HISTORY = { logs: 80_000, days: 240, logsPerOrder: 100, now: NOW };
const WINDOW = `from=${new Date(NOW - 7 * DAY).toISOString()}&to=${new Date(NOW).toISOString()}`;
const TABLES = ['ai_logs', 'exchange_orders', 'exchange_trades', 'exchange_plan_orders'];

interface Counters {
  seqScans: number;
  /** Buffers of its heap and its indexes, found in shared buffers or read. */
  buffers: number;
}

/** ai_logs' scans and buffers so far, as PostgreSQL counts them for the whole database. */
async function aiLogsCounters(db: pg.Client): Promise<Counters> {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await db.query(`
    SELECT s.seq_scan::int AS "seqScans",
           (io.heap_blks_hit + io.heap_blks_read + io.idx_blks_hit + io.idx_blks_read)::int AS buffers
    FROM pg_stat_user_tables s JOIN pg_statio_user_tables io USING (relid) WHERE s.relname = 'ai_logs'`);
  return rows[0];
}

/**
 * Waits until no other connection to the database is left. A backend reports its counters when it exits, so after
 * this pg_stat holds everything the API's connections did.
 */
async function othersGone(db: pg.Client): Promise<void> {
  await waitFor('the other connections to close', async () => {
    const { rows } = await db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return rows[0].n === 0 ? true : undefined;
  });
}

describe('coverage and the report read a few index entries per order in the window, never the whole logs table', () => {
  let db: pg.Client;
  let window: { orders: number; logs: number; heapPages: number };
  // Before the suite's own afterAll, which drops the database.
  afterAll(async () => {
    await db?.end();
  });
  const suite = apiProcessSuite();

  beforeAll(async () => {
    await (await suite.start({ AGENT_API_KEY: KEY })).stop(); // migrates the database and makes the agent key
    db = new pg.Client({ connectionString: suite.env.DATABASE_URL });
    await db.connect();
    // The tables are never analysed unless a test says so, whatever the machine's autovacuum does.
    for (const table of TABLES) await db.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    await onItsOwnConnection((filler) => fillHistory(filler, HISTORY));
    const from = new Date(NOW - 7 * DAY);
    const { rows } = await db.query(
      `SELECT (SELECT count(*)::int FROM exchange_orders WHERE created_at BETWEEN $1 AND $2) AS orders,
              (SELECT count(*)::int FROM ai_logs WHERE received_at BETWEEN $1 AND $2) AS logs,
              (pg_relation_size('ai_logs') / current_setting('block_size')::int)::int AS "heapPages"`,
      [from, new Date(NOW)],
    );
    window = rows[0];
    expect(window.orders).toBeGreaterThan(20);
  }, 120_000);

  /** Runs `work` on a connection of its own, closed after: what it costs is in pg_stat once othersGone says so. */
  async function onItsOwnConnection(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
    const client = new pg.Client({ connectionString: suite.env.DATABASE_URL });
    await client.connect();
    await work(client);
    await client.end();
  }

  /** One coverage request and one report (unless `report` is false) from a fresh API process, and what they cost ai_logs. */
  async function coverageAndReport({ report: withReport = true } = {}): Promise<{ coverage: any; report?: Response; cost: Counters }> {
    await othersGone(db);
    const before = await aiLogsCounters(db);
    const api = await suite.start({ AGENT_API_KEY: KEY });
    const headers = { authorization: `Bearer ${KEY}` };
    const coverage = await (await fetch(`${api.url}/v1/compliance/coverage?${WINDOW}`, { headers })).json();
    const report = withReport ? await fetch(`${api.url}/v1/audit/report?${WINDOW}`, { headers }) : undefined;
    await report?.text();
    await api.stop();
    await othersGone(db);
    const after = await aiLogsCounters(db);
    return { coverage, report, cost: { seqScans: after.seqScans - before.seqScans, buffers: after.buffers - before.buffers } };
  }

  /**
   * Per order in the window, a few index probes (its logs, its plan orders', its fills'), made four times (the counts
   * and the list, by coverage and again by the report); per log received in the window, its share of a heap page,
   * read by the report's count, timeline and models, and by the unmatched logs per log that names an order. Measured here: 2,514 buffers, analysed
   * or not, of a 13,334-page table. The old link (`order_id = ... OR order_id IN (...)`) read the whole table once per
   * order: 5,036,726 buffers on tables never analysed, 368 sequential scans on analysed ones.
   */
  const bound = () => 50 * window.orders + 2 * window.logs;

  const expectCheap = ({ coverage, report, cost }: Awaited<ReturnType<typeof coverageAndReport>>) => {
    expect(coverage.orders.total).toBe(window.orders);
    expect(coverage.orders.covered).toBeGreaterThan(0);
    expect(report?.status).toBe(200);
    expect(cost.seqScans).toBe(0);
    expect(cost.buffers).toBeLessThanOrEqual(bound());
    expect(cost.buffers).toBeLessThan(window.heapPages);
  };

  it('on tables never analysed', async () => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_user_tables WHERE relname = ANY ($1) AND last_analyze IS NULL AND last_autoanalyze IS NULL`,
      [TABLES],
    );
    expect(rows[0].n).toBe(TABLES.length);
    expectCheap(await coverageAndReport());
  }, 120_000);

  it('and once they are analysed', async () => {
    await onItsOwnConnection((client) => client.query(`ANALYZE ${TABLES.join(', ')}`));
    expectCheap(await coverageAndReport());
  }, 120_000);

  it('reads, of the logs in the window, only those that name an order', async () => {
    const before = await coverageAndReport({ report: false });
    // 20,000 more logs in the window, naming no order, that the statistics have not seen.
    await onItsOwnConnection((client) =>
      client.query(
        `INSERT INTO ai_logs (id, account_id, agent_key_id, stage, model, input, output, explanation, status, attempt_count,
                            next_attempt_at, received_at, uploaded_at, updated_at, seq, prev_hash, hash)
       SELECT gen_random_uuid(), account_id, agent_key_id, stage, model, input, output, explanation, status, 1,
              t, t, t, t, 1000000 + i, prev_hash, hash
       FROM (SELECT * FROM ai_logs WHERE account_id = 'default' AND seq = 1 AND order_id IS NULL) a,
            generate_series(1, 20000) AS i, LATERAL (SELECT now() - interval '1 day' * i / 20000 AS t) at`,
      ),
    );
    const after = await coverageAndReport({ report: false });
    expect(after.coverage.orders).toEqual(before.coverage.orders);
    expect(after.coverage.unmatchedLogsTotal).toBe(before.coverage.unmatchedLogsTotal);
    // Read with the window's other logs, they cost 4,081 more buffers (measured before the partial index); now none.
    expect(after.cost.seqScans).toBe(0);
    expect(after.cost.buffers - before.cost.buffers).toBeLessThan(100);
  }, 120_000);
});
