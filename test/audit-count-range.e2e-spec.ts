import { AuditChainCheck } from '#libs/audit';
import { seedChains } from '../bench/support/audit-chains.mjs';
import { gatewaySuite } from './support/gateway-suite.js';

const LOGS = 150_000;

/**
 * Issue 23 §4: each run of the audit check counted every log and receipt of the account, to find rows deleted below
 * the frontier: over a million logs of 1.2 KB it read the whole 1.5 GB table when its visibility map lagged (0.6-1.1 s
 * a run, besides the receipts). A run now counts the next 100,000 rows below each frontier, round from seq 1 as the
 * sweep goes, and looks up both ends of what it verified every run.
 */
describe('the audit check counts the history a range at a time', () => {
  const suite = gatewaySuite({ AUDIT_CHECK_INTERVAL_MS: '3600000', AUDIT_CHECKPOINT_INTERVAL_MS: '3600000' });
  const check = () => suite.harness.gateway.worker!.get(AuditChainCheck);
  const cursor = async () => (await suite.db.query("SELECT count_log_seq::text AS seq FROM audit_checks WHERE account_id = 'default'")).rows[0].seq;
  /** Deletes rows (a log's upload attempts go with it), and answers how to put every row back. */
  async function remove(table: 'ai_logs' | 'upload_attempts', where: string): Promise<() => Promise<void>> {
    const attempts =
      table === 'ai_logs' ? (await suite.db.query(`SELECT * FROM upload_attempts WHERE log_id IN (SELECT id FROM ai_logs WHERE ${where})`)).rows : [];
    const rows = (await suite.db.query(`DELETE FROM ${table} WHERE account_id = 'default' AND ${where} RETURNING *`)).rows;
    return async () => {
      for (const [into, each] of [
        [table, rows],
        ['upload_attempts', attempts],
      ] as const) {
        for (const row of each) {
          const columns = Object.keys(row);
          await suite.db.query(`INSERT INTO ${into} (${columns}) VALUES (${columns.map((_, i) => `$${i + 1}`)})`, Object.values(row));
        }
      }
    };
  }
  /** What `n` runs find (the finding's words and since when), each with where the next run counts from; `traffic`, with
   * a few logs and receipts appended before each run, so that the frontiers move on. */
  async function runs(n: number, traffic = false): Promise<Array<[string | undefined, string | undefined, string]>> {
    const seen: Array<[string | undefined, string | undefined, string]> = [];
    for (let run = 0; run < n; run++) {
      if (traffic) await seedChains(suite.db, { logs: 5 });
      const { broken } = await check().run('default');
      seen.push([broken?.reason, broken?.since, await cursor()]);
    }
    return seen;
  }
  const words = (item: string, seq: number) => `${item} seq ${seq} is missing: it was verified earlier and is no longer stored`;

  beforeAll(async () => {
    await seedChains(suite.db, { logs: LOGS });
    // Run after run until both frontiers are at the heads (50,000 links a run).
    for (let run = 0; run < 10 && !(await check().run('default')).complete; run++);
    expect(await check().view('default')).toMatchObject({ ok: true, complete: true, logs: { verifiedSeq: String(LOGS) } });
  }, 240_000);

  it('counts the next 100,000 rows below each frontier, then starts again from seq 1', async () => {
    const seen = (await runs(4)).map(([, , next]) => next);
    // 1..100,000, then 100,001..150,000 (the frontier), then from seq 1 again.
    expect(seen).toEqual(seen[0] === '100000' ? ['100000', '0', '100000', '0'] : ['0', '100000', '0', '100000']);
  }, 120_000);

  it('finds a log deleted in the middle within a pass, and says the same, since the same time, while logs come in', async () => {
    const restore = await remove('ai_logs', 'seq = 140000');
    const seen = await runs(4, true);
    // Found at the first or second run; from then on its range is counted again, and the finding does not change.
    const found = seen.findIndex(([reason]) => reason === words('log', 140000));
    expect(found).toBeLessThanOrEqual(1);
    expect(seen.slice(found).map(([reason, since, next]) => [reason, since, next])).toEqual(
      Array(seen.length - found).fill([words('log', 140000), seen[found][1], '100000']),
    );
    await restore();
    // Whole again, the range is left behind (the finding itself stays until both sweeps have gone round).
    expect((await runs(1))[0][2]).not.toBe('100000');
  }, 120_000);

  it('finds either end of the verified chain deleted at the next run, wherever the count is', async () => {
    await suite.db.query("UPDATE audit_checks SET count_log_seq = 100000 WHERE account_id = 'default'");
    const restoreFirst = await remove('ai_logs', 'seq = 1');
    const first = await runs(3, true);
    expect(first.map(([reason, since]) => [reason, since])).toEqual(Array(3).fill([words('log', 1), first[0][1]]));
    await restoreFirst();
    // The frontier's row: new links move the frontier past it, and the finding stays.
    const { frontier } = (await suite.db.query("SELECT log_seq::text AS frontier FROM audit_checks WHERE account_id = 'default'")).rows[0];
    await suite.db.query("UPDATE audit_checks SET count_log_seq = 0 WHERE account_id = 'default'");
    const restoreLast = await remove('ai_logs', `seq = ${frontier}`);
    const last = await runs(3, true);
    expect(last.map(([reason, since]) => [reason, since])).toEqual(Array(3).fill([words('log', Number(frontier)), last[0][1]]));
    await restoreLast();
  }, 120_000);

  it('counts the receipts as well, even while the logs have a finding of their own', async () => {
    const restoreReceipt = await remove('upload_attempts', 'receipt_seq = 50000');
    await suite.db.query("UPDATE ai_logs SET seq = NULL WHERE account_id = 'default' AND seq = 140000");
    const receiptCursor = async () =>
      (await suite.db.query("SELECT count_receipt_seq::text AS seq FROM audit_checks WHERE account_id = 'default'")).rows[0].seq;
    const seen = [];
    for (let run = 0; run < 3; run++) seen.push([(await check().run('default')).broken?.reason, await receiptCursor()]);
    const outside = '1 logs are outside the chain (no seq or hash): they were not accepted through the gateway';
    // The receipts' range 1..100,000 came up short within two runs, and was kept.
    expect(seen.at(-1)).toEqual([outside, '0']);
    expect(seen.every(([reason]) => reason === outside)).toBe(true);
    await suite.db.query("UPDATE ai_logs SET seq = 140000 WHERE account_id = 'default' AND seq IS NULL");
    // So the gap is the finding at the next run, not a pass later.
    expect((await runs(1))[0][0]).toBe(words('receipt', 50000));
    await restoreReceipt();
  }, 120_000);
});
