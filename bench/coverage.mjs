// Coverage and the judges' report over a long history (issue 23 §4), measured through a real API process:
// BENCH_COVERAGE_LOGS logs (default 1,000,000, ~1.2 KB each) in one account over BENCH_COVERAGE_DAYS days (default
// 100), 1,000 orders in the last 7, written straight into PostgreSQL (bench/support/coverage-history.mjs). Each request is timed on tables never
// analysed, then again after ANALYZE, with the buffers of ai_logs it touched (pg_statio, counted once the API's
// connections have closed). Not a scenario of run.mjs: filling the history takes a minute or more.
//   npm run build && node bench/coverage.mjs
import { fillHistory } from './support/coverage-history.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi } from './support/gateway.mjs';
import { poll } from './support/processes.mjs';
import { withClient } from './support/services.mjs';

const LOGS = Number(process.env.BENCH_COVERAGE_LOGS ?? 1_000_000);
const DAYS = Number(process.env.BENCH_COVERAGE_DAYS ?? 100);
const WINDOW_DAYS = 7;
const WINDOW_ORDERS = 1_000;
const REQUESTS = 5;
const TABLES = ['ai_logs', 'exchange_orders', 'exchange_trades', 'exchange_plan_orders'];

const now = Date.now();
const window = `from=${new Date(now - WINDOW_DAYS * 86_400_000).toISOString()}&to=${new Date(now).toISOString()}`;
const cleanup = new Cleanup();
process.once('SIGINT', () => void Cleanup.runAll().then(() => process.exit(130)));

try {
  const { database, env } = await gatewayEnvironment(cleanup);
  const query = (sql, params) => withClient(database.url, (client) => client.query(sql, params));
  await (await startApi(cleanup, env)).stop(); // migrates the database
  for (const table of TABLES) await query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
  const logsPerOrder = Math.round((LOGS * Math.min(WINDOW_DAYS, DAYS)) / DAYS / WINDOW_ORDERS);
  let started = Date.now();
  const { orders } = await withClient(database.url, (client) => fillHistory(client, { logs: LOGS, days: DAYS, logsPerOrder, now }));
  const [inWindow] = (
    await query(
      `SELECT (SELECT count(*) FROM exchange_orders WHERE created_at >= $1)::int AS orders,
              (SELECT count(*) FROM ai_logs WHERE received_at >= $1)::int AS logs,
              pg_size_pretty(pg_table_size('ai_logs')) AS size`,
      [new Date(now - WINDOW_DAYS * 86_400_000)],
    )
  ).rows;
  console.log(
    `history: ${LOGS.toLocaleString('en')} logs (${inWindow.size}) and ${orders.toLocaleString('en')} orders over ${DAYS} days, ` +
      `filled in ${((Date.now() - started) / 1000).toFixed(0)} s; the last ${WINDOW_DAYS} days hold ${inWindow.orders} orders and ${inWindow.logs.toLocaleString('en')} logs`,
  );

  for (const state of ['never analysed', 'analysed']) {
    if (state === 'analysed') {
      started = Date.now();
      await query(`ANALYZE ${TABLES.join(', ')}`);
      console.log(`ANALYZE took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    const before = await aiLogsCounters(query);
    const api = await startApi(cleanup, env);
    for (const path of ['/v1/compliance/coverage', '/v1/audit/report']) {
      const ms = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t = performance.now();
        const res = await fetch(`${api.url}${path}?${window}`, { headers: AUTH });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${path}: ${res.status}`);
        ms.push(performance.now() - t);
      }
      const sorted = [...ms].sort((a, b) => a - b);
      console.log(
        `${state}: ${path} 7-day window: first ${ms[0].toFixed(0)} ms, median of ${REQUESTS} ${sorted[REQUESTS >> 1].toFixed(0)} ms (${ms.map((m) => m.toFixed(0)).join(', ')})`,
      );
    }
    await api.stop();
    const after = await aiLogsCounters(query);
    console.log(
      `${state}: ai_logs per coverage request and report: ${((after.buffers - before.buffers) / REQUESTS).toFixed(0)} buffers, ` +
        `${(after.seqScans - before.seqScans) / REQUESTS} sequential scans (its heap: ${after.heapPages.toLocaleString('en')} pages)`,
    );
  }
} finally {
  await cleanup.run();
}

/** ai_logs' counters, once every other connection to the database has closed (a backend reports them as it exits). */
async function aiLogsCounters(query) {
  await poll('the API connections to close', 30_000, async () => {
    const { rows } = await query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return rows[0].n === 0 ? true : undefined;
  });
  const { rows } = await query(`
    SELECT s.seq_scan::int AS "seqScans", (io.heap_blks_hit + io.heap_blks_read + io.idx_blks_hit + io.idx_blks_read)::bigint AS buffers,
           (pg_relation_size('ai_logs') / current_setting('block_size')::int)::int AS "heapPages"
    FROM pg_stat_user_tables s JOIN pg_statio_user_tables io USING (relid) WHERE s.relname = 'ai_logs'`);
  return { seqScans: rows[0].seqScans, buffers: Number(rows[0].buffers), heapPages: rows[0].heapPages };
}
