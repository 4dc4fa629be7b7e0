import pg from 'pg';
import { fillHistory } from '../bench/support/coverage-history.mjs';
import { apiProcessSuite } from './support/api-process.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-metrics-cost';
// 40,000 logs, one in 89 queued and one in 97 failed; an attempt (a link of the receipt chain) for each log.
const HISTORY = { logs: 40_000, days: 30, logsPerOrder: 100 };
const SCRAPES = 10;

/** The value of one sample of the exposition text (0 when absent). */
function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/**
 * What a Prometheus scrape costs PostgreSQL once the history is long: the log counts come from the logs waiting, in
 * flight and failed and the chain's head, and the attempts from those recorded since the last scrape. Each scrape read
 * all of ai_logs and all of upload_attempts (twice) before: 1.65 s of PostgreSQL at a million of each.
 */
describe('a metrics scrape after a long history', () => {
  let db: pg.Client;
  afterAll(async () => {
    await db?.end();
  });
  const suite = apiProcessSuite();

  beforeAll(async () => {
    await (await suite.start({ AGENT_API_KEY: KEY })).stop(); // migrates the database
    db = new pg.Client({ connectionString: suite.env.DATABASE_URL });
    await db.connect();
    for (const table of ['ai_logs', 'upload_attempts']) await db.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    await fillHistory(db, HISTORY);
    await attempts(1, HISTORY.logs);
  }, 120_000);

  /** An attempt for each log with seq in [from, to], as links from..to of the receipt chain (`tag` changes their hashes). */
  async function attempts(from: number, to: number, outcome = 'uploaded', tag = ''): Promise<void> {
    await db.query(
      `INSERT INTO upload_attempts (log_id, target, url, started_at, finished_at, latency_ms, outcome, http_status, exchange_code,
                                    account_id, receipt_seq, prev_hash, hash, log_status)
       SELECT id, 'exchange', 'https://example.invalid', received_at, received_at, 80 + seq % 100, $3, 200, '00000',
              account_id, seq, prev_hash, hash || $4, 'uploaded'
       FROM ai_logs WHERE account_id = 'default' AND seq BETWEEN $1 AND $2`,
      [from, to, outcome, tag],
    );
    await db.query(`INSERT INTO audit_receipt_heads (account_id, seq, hash) VALUES ('default', $1, 'h') ON CONFLICT (account_id) DO UPDATE SET seq = $1`, [to]);
  }

  /** Buffers of these tables (ai_logs and upload_attempts), heap and indexes, read so far by the whole database. */
  async function buffers(tables = ['ai_logs', 'upload_attempts']): Promise<number> {
    await db.query('SELECT pg_stat_force_next_flush()');
    await db.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await db.query(
      `SELECT sum(heap_blks_hit + heap_blks_read + idx_blks_hit + idx_blks_read)::int AS n FROM pg_statio_user_tables
       WHERE relname = ANY($1)`,
      [tables],
    );
    return rows[0].n;
  }

  /** `n` scrapes by a fresh API process, stopped after; what they read, and the last exposition text. */
  async function scrapes(n: number, tables?: string[]): Promise<{ read: number; text: string }> {
    await waitFor('the other connections to close', async () => {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      return rows[0].n === 0 ? true : undefined;
    });
    const before = await buffers(tables);
    const api = await suite.start({ AGENT_API_KEY: KEY });
    let text = '';
    for (let i = 0; i < n; i++) text = await (await fetch(`${api.url}/metrics`)).text();
    await api.stop();
    await waitFor('the API’s connections to close', async () => {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      return rows[0].n === 0 ? true : undefined;
    });
    return { read: (await buffers(tables)) - before, text };
  }

  it('reads a few pages once the first scrape has counted the attempts, and counts what is in the tables', async () => {
    const one = await scrapes(1);
    const many = await scrapes(1 + SCRAPES);
    const perScrape = (many.read - one.read) / SCRAPES;
    const { rows } = await db.query(`SELECT (pg_relation_size('ai_logs') / current_setting('block_size')::int)::int AS pages`);
    const counts = new Map((await db.query(`SELECT status::text, count(*)::int AS n FROM ai_logs GROUP BY status`)).rows.map((r) => [r.status, r.n]));
    const counted = counts.get('queued') + counts.get('failed');
    console.log(
      `metrics-cost: first scrape ${one.read} buffers, each after it ${perScrape.toFixed(1)} (${counted} logs queued or failed); ai_logs has ${rows[0].pages} pages`,
    );
    // A heap page or so for each log counted (queued or failed, here on as many pages) and a few index pages: before,
    // the whole of both tables.
    expect(perScrape).toBeLessThan(1.2 * counted + 100);
    expect(perScrape).toBeLessThan(rows[0].pages / 5);

    for (const status of ['queued', 'uploading', 'uploaded', 'retrying', 'failed'])
      expect({ status, n: sample(many.text, 'gateway_ai_logs', `account="default",status="${status}"`) }).toEqual({ status, n: counts.get(status) ?? 0 });
    expect(sample(many.text, 'gateway_ai_logs_accepted_total', 'account="default"')).toBe(HISTORY.logs);
    expect(sample(many.text, 'gateway_upload_attempts_total', 'outcome="uploaded",http_status="200",exchange_code="00000"')).toBe(HISTORY.logs);
  }, 120_000);

  it('counts the waiting and failed logs from index pages alone once VACUUM has marked the heap', async () => {
    await db.query('VACUUM ai_logs');
    const one = await scrapes(1);
    const many = await scrapes(1 + SCRAPES);
    const perScrape = (many.read - one.read) / SCRAPES;
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM ai_logs WHERE status IN ('queued', 'failed')`);
    console.log(`metrics-cost: after VACUUM, each scrape ${perScrape.toFixed(1)} buffers (${rows[0].n} logs queued or failed)`);
    // Before the index of the unfinished logs by status and account, each failed log cost a heap page: 412 here.
    expect(perScrape).toBeLessThan(rows[0].n / 5);
  }, 120_000);

  it('adds the attempts recorded between two scrapes, once', async () => {
    const api = await suite.start({ AGENT_API_KEY: KEY });
    const scrape = async () => (await fetch(`${api.url}/metrics`)).text();
    const count = (text: string) => sample(text, 'gateway_upload_latency_seconds_count', 'outcome="uploaded"');
    expect(count(await scrape())).toBe(HISTORY.logs);
    // 500 more logs' attempts: the head moves past them.
    await db.query(
      `INSERT INTO ai_logs (id, account_id, agent_key_id, stage, model, input, output, explanation, status, seq, prev_hash, hash)
       SELECT gen_random_uuid(), account_id, agent_key_id, stage, model, input, output, explanation, 'uploaded', ${HISTORY.logs} + i, prev_hash, hash
       FROM ai_logs, generate_series(1, 500) AS i WHERE account_id = 'default' AND seq = 1`,
    );
    await db.query(`UPDATE audit_heads SET seq = seq + 500 WHERE account_id = 'default'`);
    await attempts(HISTORY.logs + 1, HISTORY.logs + 500);
    const text = await scrape();
    expect(count(text)).toBe(HISTORY.logs + 500);
    expect(count(await scrape())).toBe(HISTORY.logs + 500);
    expect(sample(text, 'gateway_ai_logs_accepted_total', 'account="default"')).toBe(HISTORY.logs + 500);
    // A head behind what was counted (a database restored from a backup): counted again from the start.
    await db.query(`DELETE FROM upload_attempts WHERE receipt_seq > $1`, [HISTORY.logs]);
    await db.query(`UPDATE audit_receipt_heads SET seq = $1 WHERE account_id = 'default'`, [HISTORY.logs]);
    expect(count(await scrape())).toBe(HISTORY.logs);
    // Restored from an older backup and written past the count since: the receipt at the mark is another one.
    const kept = HISTORY.logs - 100;
    await db.query(`DELETE FROM upload_attempts WHERE receipt_seq > $1`, [kept]);
    await attempts(kept + 1, HISTORY.logs + 200, 'permanent', '-restored');
    const restored = await scrape();
    expect(count(restored)).toBe(kept);
    expect(sample(restored, 'gateway_upload_latency_seconds_count', 'outcome="permanent"')).toBe(300);
    await api.stop();
  }, 120_000);

  it('counts past a receipt missing at the head once, not again at every scrape', async () => {
    // A damaged chain (the audit check reports it): the head's receipt row is gone.
    await db.query(`DELETE FROM upload_attempts WHERE receipt_seq = (SELECT seq FROM audit_receipt_heads WHERE account_id = 'default')`);
    const one = await scrapes(1, ['upload_attempts']);
    const many = await scrapes(1 + SCRAPES, ['upload_attempts']);
    const perScrape = (many.read - one.read) / SCRAPES;
    // A few index pages (the probes at the mark); counting the history again read 1,500 pages of upload_attempts.
    console.log(`metrics-cost: with the head's receipt gone, each scrape ${perScrape.toFixed(1)} buffers of upload_attempts`);
    expect(perScrape).toBeLessThan(50);
    const { rows } = await db.query(`SELECT outcome, count(*)::int AS n FROM upload_attempts GROUP BY outcome`);
    for (const { outcome, n } of rows)
      expect({ outcome, n: sample(many.text, 'gateway_upload_latency_seconds_count', `outcome="${outcome}"`) }).toEqual({ outcome, n });
  }, 120_000);
});
