import { AiLogRepository } from '#libs/ai-log';
import { AiLogStatus } from '#libs/database';
import { auditTrail } from './support/audit-trail.js';
import { gatewaySuite } from './support/gateway-suite.js';

// A claim is an attempt under way. When its worker dies, the relay ends the claim as an `uncertain` attempt; when its
// worker was only slow, its late outcome arrives after the log was claimed again. Both must stay in the receipt chain,
// and a late failure must not take the log's state from the newer claim (or from an upload that already succeeded).
const log = (i: number) => ({
  orderId: `${737185556881998000 + i}`,
  stage: 'decision',
  model: 'm-v1',
  input: { i },
  output: { side: 'BUY' },
  explanation: `claim ${i}`,
});
const attempt = (outcome: 'uploaded' | 'retryable') => {
  const at = new Date();
  return { target: 'simulator' as const, url: 'http://127.0.0.1/capi/v3/order/uploadAiLog', startedAt: at, finishedAt: at, outcome };
};

describe("an account's first uploads, finished at once", () => {
  // A database of its own: the account has no receipt chain yet, so every one of these attempts finds no head.
  const suite = gatewaySuite({}, { worker: false });
  const audit = auditTrail(suite);

  it('records each as uploaded, whichever of them made the head of the receipt chain', async () => {
    const repository = suite.harness.gateway.api.app.get(AiLogRepository);
    const ids = await audit.post([1, 2, 3, 4, 5, 6, 7, 8].map((i) => log(100 + i)));
    const claims = await Promise.all(ids.map(() => repository.claimNext('default', 60_000)));
    // A millisecond apart, as a drainer's lanes finish: one attempt's look for the head can then follow another's making it.
    await Promise.all(
      claims.map(async ({ log }, i) => {
        await new Promise((resolve) => setTimeout(resolve, i));
        await repository.finishAttempt(log!.id, log!.attemptCount, attempt('uploaded'), AiLogStatus.uploaded, null);
      }),
    );
    const { rows } = await suite.db.query('SELECT status, count(*)::int AS n FROM ai_logs GROUP BY status');
    expect(rows).toEqual([{ status: 'uploaded', n: 8 }]);
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: true, broken: null });
  }, 60_000);
});

describe('claims that lapse, and outcomes that come late', () => {
  // No worker: the test claims and finishes attempts itself, as a drainer would.
  const suite = gatewaySuite({}, { worker: false });
  const audit = auditTrail(suite);
  const repository = () => suite.harness!.gateway.api.app.get(AiLogRepository);
  const row = async (id: string) => (await suite.db.query('SELECT status, attempt_count FROM ai_logs WHERE id = $1', [id])).rows[0];
  const receipts = async (id: string) =>
    (await suite.db.query('SELECT outcome, log_status, receipt_seq FROM upload_attempts WHERE log_id = $1 ORDER BY receipt_seq', [id])).rows;
  const lapse = (id: string) => suite.db.query("UPDATE ai_logs SET claimed_until = now() - interval '1 second' WHERE id = $1", [id]);

  it('records a lapsed claim as an uncertain link of the receipt chain, once, whichever relays sweep', async () => {
    const [id] = await audit.post([log(1)]);
    const claim = await repository().claimNext('default', 60_000);
    expect(claim.log?.id).toBe(id);
    await lapse(id);
    const sweeps = await Promise.all([
      repository().recoverLapsedClaims('simulator'),
      repository().recoverLapsedClaims('simulator'),
      repository().recoverLapsedClaims('simulator'),
    ]);
    expect(sweeps.flat()).toEqual(['default']);
    expect(await row(id)).toEqual({ status: 'retrying', attempt_count: 1 });
    expect(await receipts(id)).toEqual([{ outcome: 'uncertain', log_status: 'retrying', receipt_seq: '1' }]);
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: true, broken: null });
    // Done with it, so that the next test's claim finds its own log.
    const again = (await repository().claimNext('default', 60_000)).log!;
    await repository().finishAttempt(id, again.attemptCount, attempt('uploaded'), AiLogStatus.uploaded, null);
  }, 60_000);

  it("keeps a late failure of a lapsed claim out of the newer claim's state, in the chain all the same", async () => {
    const [id] = await audit.post([log(2)]);
    const first = (await repository().claimNext('default', 60_000)).log!;
    expect(first.id).toBe(id);
    await lapse(id);
    await repository().recoverLapsedClaims('simulator');
    const second = (await repository().claimNext('default', 60_000)).log!;
    expect(second.attemptCount).toBe(first.attemptCount + 1);

    // The first worker's answer comes now: a retryable failure. The log stays with the second claim.
    await repository().finishAttempt(id, first.attemptCount, attempt('retryable'), AiLogStatus.retrying, 'transient: late');
    expect(await row(id)).toEqual({ status: 'uploading', attempt_count: second.attemptCount });
    // The second claim's success settles it; a late failure after it changes nothing either.
    await repository().finishAttempt(id, second.attemptCount, attempt('uploaded'), AiLogStatus.uploaded, null);
    await repository().finishAttempt(id, first.attemptCount, attempt('retryable'), AiLogStatus.retrying, 'transient: later still');
    expect((await row(id)).status).toBe('uploaded');
    expect((await receipts(id)).map((r) => [r.outcome, r.log_status])).toEqual([
      ['uncertain', 'retrying'],
      ['retryable', 'uploading'],
      ['uploaded', 'uploaded'],
      ['retryable', 'uploaded'],
    ]);
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: true, broken: null });
  }, 60_000);
});
