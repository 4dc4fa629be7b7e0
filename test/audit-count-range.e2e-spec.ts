import { AuditChainCheck } from '#libs/audit';
import { seedChains } from '../bench/support/audit-chains.mjs';
import { gatewaySuite } from './support/gateway-suite.js';

const LOGS = 150_000;

/**
 * Issue 23 §4: each run of the audit check counted every log and receipt of the account, to find rows deleted below
 * the frontier: over a million logs of 1.2 KB it read the whole 1.5 GB table when its visibility map lagged (0.6-1.1 s
 * a run, besides the receipts). A run now counts the next 100,000 rows below each frontier, round from seq 1 as the
 * sweep goes, so that a deleted row is still found within a pass.
 */
describe('the audit check counts the history a range at a time', () => {
  const suite = gatewaySuite({ AUDIT_CHECK_INTERVAL_MS: '3600000', AUDIT_CHECKPOINT_INTERVAL_MS: '3600000' });
  const check = () => suite.harness.gateway.worker!.get(AuditChainCheck);
  const cursor = async () =>
    (await suite.db.query("SELECT count_log_seq::text AS logs, count_receipt_seq::text AS receipts FROM audit_checks WHERE account_id = 'default'")).rows[0];

  beforeAll(async () => {
    await seedChains(suite.db, { logs: LOGS });
    // Run after run until both frontiers are at the heads (50,000 links a run).
    for (let run = 0; run < 10 && !(await check().run('default')).complete; run++);
    expect(await check().view('default')).toMatchObject({ ok: true, complete: true, logs: { verifiedSeq: String(LOGS) } });
  }, 240_000);

  it('counts the next 100,000 rows below each frontier, then starts again from seq 1', async () => {
    const seen = [];
    for (let run = 0; run < 4; run++) {
      await check().run('default');
      seen.push((await cursor()).logs);
    }
    // 1..100,000, then 100,001..150,000 (the frontier), then from seq 1 again.
    expect(seen).toEqual(seen[0] === '100000' ? ['100000', '0', '100000', '0'] : ['0', '100000', '0', '100000']);
  }, 120_000);

  it('finds a log deleted anywhere below the frontier within a pass', async () => {
    await suite.db.query("DELETE FROM ai_logs WHERE account_id = 'default' AND seq = 140000");
    const reasons = [];
    for (let run = 0; run < 2; run++) reasons.push((await check().run('default')).broken?.reason);
    expect(reasons).toContain('log seq 140000 is missing: 1 of the 50000 logs verified earlier in seq 100001..150000 are gone');
  }, 120_000);
});
