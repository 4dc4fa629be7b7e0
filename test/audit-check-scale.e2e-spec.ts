import { readFileSync } from 'node:fs';
import pg from 'pg';
import { ExportVerifier } from '#libs/audit-chain';
import { applyMigrations } from '#libs/database';
import { seedChains, type SeededHeads } from '../bench/support/audit-chains.mjs';
import { type ApiProcess, apiProcessSuite } from './support/api-process.js';
import { waitFor } from './support/wait-for.js';

// Issue 23 §4: on tables never analysed (autovacuum off), finding each log's last receipt scanned the account's whole
// receipt index, N² over the chain (4 s per 1,000 links at 100k logs); and the worker's RSS jumped from 130 to 356 MB
// at each check under mixed load: a page was 1,000 logs whatever their size, and a log may be 1 MiB. GET
// /v1/audit/verify waited 15 s for the worker's run, then answered the previous result as if it were new.
const KEY = 'agent-key-for-audit-check-scale';
const LOGS = 20_000;
/** The node flags of `npm run start:api` (its heap as deployed). */
const API_FLAGS = /^(?:[A-Z_]+=\S+ )*(?:exec )?node (.*) dist\/apps\/api\/src\/main\.js$/.exec(
  JSON.parse(readFileSync('package.json', 'utf8')).scripts['start:api'],
)![1];

describe('the audit check and export over a long chain, on tables never analysed', () => {
  let db: pg.Client;
  // Declared before the suite's: jest runs afterAll hooks in order, and the suite's drops the database.
  afterAll(() => db?.end());
  const suite = apiProcessSuite();
  let heads: SeededHeads;
  let api: ApiProcess;
  const get = (path: string) => fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
  const verify = async () => (await (await get('/v1/audit/verify')).json()) as Record<string, any>;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: suite.env.DATABASE_URL });
    await db.connect();
    await applyMigrations(db);
    // Written by a connection of its own, so that when it is gone its statistics are counted before the reset below.
    const seeder = new pg.Client({ connectionString: suite.env.DATABASE_URL });
    await seeder.connect();
    heads = await seedChains(seeder, { logs: LOGS });
    await seeder.end();
  }, 120_000);

  /** Waits until no other connection is open on the database: each backend has counted its reads when it ends. */
  const alone = () =>
    waitFor('the other connections to close', async () => {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      return rows[0].n === 0 ? true : undefined;
    });

  it('reads a bounded number of index entries and rows per link, whatever the chain length', async () => {
    await alone();
    await db.query('SELECT pg_stat_reset()');
    api = await suite.start({ AGENT_API_KEY: KEY });
    expect(await verify()).toMatchObject({
      ok: true,
      complete: true,
      logs: { verifiedSeq: heads.logs.seq, verifiedHash: heads.logs.hash },
      receipts: { verifiedSeq: heads.receipts.seq, verifiedHash: heads.receipts.hash },
    });
    expect(await verifyExport(await get('/v1/audit/export'))).toMatchObject({ ok: true, rows: LOGS, lastSeq: heads.logs.seq });
    await api.stop();
    await alone();

    // Every row and index entry the check and the export read from both chains' tables, per link they went over.
    const { rows } = await db.query(`
      SELECT sum(coalesce(t.seq_tup_read, 0) + coalesce(i.read, 0))::bigint::text AS read FROM pg_stat_user_tables t
      LEFT JOIN (SELECT relid, sum(idx_tup_read) AS read FROM pg_stat_user_indexes GROUP BY relid) i ON i.relid = t.relid
      WHERE t.relname IN ('ai_logs', 'upload_attempts')`);
    const links = 2 * (Number(heads.logs.seq) + Number(heads.receipts.seq));
    // A link costs a few index entries (its row, its log's last receipt or its receipt's log) and the check's counts
    // one more; scanning the account's receipt index per log cost about 10,000 here (20,000 logs).
    expect(Number(rows[0].read) / links).toBeLessThan(10);
  }, 300_000);

  it('holds a page of logs, not a thousand, however large the logs are', async () => {
    // 300 logs of 900 KB appended to the chain, each stored compressed (a run of one character) but read back whole.
    const seeder = new pg.Client({ connectionString: suite.env.DATABASE_URL });
    await seeder.connect();
    const pad = 'x'.repeat(900 * 1024);
    heads = await seedChains(seeder, { logs: 300, body: (seq) => ({ seq, pad }) });
    await seeder.end();
    api = await suite.start({ AGENT_API_KEY: KEY, NODE_OPTIONS: API_FLAGS });
    const before = highWaterMb(api.pid);
    expect(await verify()).toMatchObject({ ok: true, logs: { verifiedSeq: heads.logs.seq } });
    expect(await verifyExport(await get('/v1/audit/export'))).toMatchObject({ ok: true, lastSeq: heads.logs.seq });
    // The 300 logs are 264 MB of text; a page of them all, with their canonical forms, ran the process out of its heap.
    expect(highWaterMb(api.pid) - before).toBeLessThan(150);
  }, 300_000);

  it("answers GET /v1/audit/verify at once while another run holds the account, with the last result and that run's start", async () => {
    const last = await verify();
    // A run elsewhere (a worker's) holds the account as it does while it checks: its lease, taken for 10 minutes.
    const { rows } = await db.query(`
      UPDATE audit_checks SET lease_until = now() + interval '10 minutes'
      RETURNING to_char((lease_until - interval '10 minutes') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS since`);
    expect(await verify()).toEqual({ ...last, runningSince: rows[0].since });

    await db.query('UPDATE audit_checks SET lease_until = NULL');
    const next = await verify();
    expect(next).toMatchObject({ ok: true, complete: true, runningSince: null });
    expect(next.checkedAt > last.checkedAt).toBe(true);
  });
});

/** The most memory the process has held since it started (the kernel's high-water mark of its RSS), in MB. */
function highWaterMb(pid: number): number {
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** Reads an export line by line as it streams, as `npm run audit:verify` does; answers the verdict. */
async function verifyExport(res: Response) {
  const verifier = new ExportVerifier();
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of res.body!) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
    rest = lines.pop()!;
    for (const line of lines) verifier.add(line);
  }
  verifier.add(rest + decoder.decode());
  return verifier.finish();
}
