import { AuditChainCheck } from '#libs/audit';
import { seedChains } from '../bench/support/audit-chains.mjs';
import { gatewaySuite } from './support/gateway-suite.js';

/** Links per minute of the periodic runs here: with a minute since the last run, 1,000 new links and a sweep of 200. */
const LINKS_PER_MIN = 1_000;
const SWEEP = 200;
/** New logs before each run: the chain grows faster than the sweep goes. */
const GROWTH = 300;

/**
 * Issue 23: a sweep's pass ended where the frontier was at each run, so while the chain grew faster than the sweep
 * (above 10,000 links a minute with the default rate) a pass never ended, and a finding, which clears only once both
 * sweeps have gone round after it, stayed after the row was put back. A pass now ends where the frontier was when it
 * started.
 */
describe('the audit check’s sweep while the chain grows faster than it', () => {
  const suite = gatewaySuite({ AUDIT_CHECK_INTERVAL_MS: '3600000', AUDIT_CHECKPOINT_INTERVAL_MS: '3600000' });
  const check = () => suite.harness.gateway.worker!.get(AuditChainCheck);
  /** A periodic run a minute after the last one, after GROWTH new logs with their receipts. */
  async function periodicRun() {
    await seedChains(suite.db, { logs: GROWTH });
    await suite.db.query("UPDATE audit_checks SET checked_at = now() - interval '60 seconds' WHERE account_id = 'default'");
    const view = await check().run('default', { waitMs: 30_000, linksPerMinute: LINKS_PER_MIN });
    expect(view.runningSince).toBeNull();
    return view;
  }
  const sweepEnd = async () =>
    (await suite.db.query("SELECT sweep_log_end_seq::int AS logs, sweep_receipt_end_seq::int AS receipts FROM audit_checks WHERE account_id = 'default'"))
      .rows[0] as { logs: number; receipts: number };

  beforeAll(async () => {
    await seedChains(suite.db, { logs: 2_000 });
    expect(await check().run('default', { waitMs: 30_000 })).toMatchObject({ ok: true, complete: true });
  }, 60_000);

  it('clears a finding once the row is put back, within a pass of the chain as it was', async () => {
    await suite.db.query("UPDATE ai_logs SET explanation = 'changed' WHERE account_id = 'default' AND seq = 100");
    const found = await periodicRun();
    expect(found.broken).toMatchObject({ chain: 'logs', seq: '100' });
    await suite.db.query("UPDATE ai_logs SET explanation = 'seeded' WHERE account_id = 'default' AND seq = 100");

    // The pass after the finding ends where the frontiers were at its first run.
    let view = await periodicRun();
    const end = await sweepEnd();
    expect(end.logs).toBeGreaterThan(2_000);
    // The frontiers move on by GROWTH a run, more than the sweeps: measured against them, the passes never ended.
    let runs = 1;
    for (; runs < 100 && view.broken; runs++) view = await periodicRun();
    expect(view.broken).toBeNull();
    // Neither sooner (a pass that ended early) nor later: about SWEEP links a run (at most 210 for a run 63 s after the last).
    expect(runs).toBe(Math.ceil(Math.max(end.logs, end.receipts) / SWEEP));
    expect(view).toMatchObject({ ok: true });
    expect(BigInt(view.logs.verifiedSeq)).toBeGreaterThan(BigInt(end.logs) + BigInt(GROWTH));
    // Done, the next pass ends at the frontier as it is now.
    await periodicRun();
    expect((await sweepEnd()).logs).toBeGreaterThan(end.logs);
  }, 120_000);

  it('starts a pass again from seq 1 when its stored end or position does not fit the frontier', async () => {
    const state = async () =>
      (
        await suite.db.query(
          "SELECT log_seq::int AS frontier, sweep_log_seq::int AS at, sweep_log_end_seq::int AS end, log_swept_at AS swept FROM audit_checks WHERE account_id = 'default'",
        )
      ).rows[0] as { frontier: number; at: number; end: number; swept: Date | null };
    const { frontier, swept } = await state();
    // An end past the frontier, and a position past it: left as they are, the pass would never end, or end unverified.
    await suite.db.query("UPDATE audit_checks SET sweep_log_end_seq = log_seq + 1000, sweep_log_seq = log_seq + 500 WHERE account_id = 'default'");
    const view = await periodicRun();
    expect(view).toMatchObject({ ok: true, logs: { sweptAt: swept?.toISOString() ?? null } });
    const after = await state();
    expect(after.end).toBe(frontier);
    expect(after.at).toBeGreaterThan(0);
    expect(after.at).toBeLessThanOrEqual(SWEEP + 10);
  }, 60_000);
});
