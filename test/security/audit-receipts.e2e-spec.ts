import { canonicalReceipt, chainHash } from '#libs/audit-chain';
import { parseJson } from '#libs/common';
import { auditTrail } from '../support/audit-trail.js';
import { auditVerify } from '../support/audit-verify-cli.js';
import { gatewaySuite } from '../support/gateway-suite.js';
import { waitFor } from '../support/wait-for.js';

// Issue 15 §6: upload receipts (the exchange's answer per log) were outside the chain: a log could be set to failed,
// or its receipt edited, without trace. And the API never checked the stored chain itself.
const log = (i: number) => ({
  orderId: `${737185556881999000n + BigInt(i)}`,
  stage: 'decision',
  model: 'm-v1',
  input: { i },
  output: { side: 'SELL' },
  explanation: `reason ${i}`,
});

describe('upload receipts in the tamper evidence, and the server-side check with its metric', () => {
  // The worker checks every second here, as it would every minute by default.
  const suite = gatewaySuite({ AUDIT_CHECK_INTERVAL_MS: '1000', AUDIT_CHECKPOINT_INTERVAL_MS: '3600000' });
  const audit = auditTrail(suite);
  let pubkey = '';

  const metric = async (): Promise<{ ok?: number; checkedAt?: number }> => {
    const text = await (await fetch(`${suite.harness!.apiUrl}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name}\\{account="default"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    return { ok: value('gateway_audit_chain_ok'), checkedAt: value('gateway_audit_chain_checked_timestamp_seconds') };
  };
  /** Waits until the worker's periodic check reports the chain as ok (1) or broken (0), after `since`. */
  const checked = (ok: 0 | 1, since: number) =>
    waitFor(
      `gateway_audit_chain_ok ${ok}`,
      async () => {
        const m = await metric();
        return m.ok === ok && m.checkedAt! * 1000 >= since ? m : undefined;
      },
      30_000,
    );
  const receipt = async (seq: number) => (await suite.db.query('SELECT * FROM upload_attempts WHERE receipt_seq = $1', [seq])).rows[0];

  beforeAll(async () => {
    await audit.post(Array.from({ length: 12 }, (_, i) => log(i + 1)));
    await audit.uploaded(12);
    pubkey = await audit.pubkey();
  }, 60_000);

  it('chains every upload attempt: the export carries the receipts, and each log line agrees with its last one', async () => {
    const checkpoint = await audit.json('/v1/audit/checkpoints', { method: 'POST' });
    expect(checkpoint).toMatchObject({ seq: '12', receiptSeq: '12', receiptHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const file = await audit.exportTo('receipts.jsonl');
    const verified = await auditVerify(file, '--pubkey', pubkey, '--head', checkpoint.hash);
    expect(verified).toEqual({ code: 0, out: expect.stringContaining('OK: 12 logs, seq 1..12, unbroken from the genesis hash') });
    expect(verified.out).toContain('receipts: 12 receipts, seq 1..12, unbroken from the genesis hash');
    expect(verified.out).toContain('checkpoints: 2 signatures verified');
    expect(verified.out).toContain('end line: counts agree, signed by the given key');

    const lines = (await import('node:fs'))
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => parseJson(l) as any);
    const logLine = lines.find((l) => l.type === 'log' && l.seq === '3');
    const receiptLine = lines.find((l) => l.type === 'receipt' && l.receipt.logId === logLine.log.id);
    expect(logLine.upload).toEqual({
      receiptSeq: receiptLine.seq,
      status: 'uploaded',
      at: receiptLine.receipt.finishedAt,
      exchangeCode: receiptLine.receipt.exchangeCode,
    });
    expect(receiptLine.receipt).toMatchObject({
      accountId: 'default',
      logSeq: '3',
      logHash: logLine.hash,
      outcome: 'uploaded',
      httpStatus: 200,
      status: 'uploaded',
    });
    expect(receiptLine.hash).toBe(chainHash(receiptLine.prevHash, canonicalReceipt(receiptLine.receipt)));
  }, 60_000);

  it('catches a receipt edited in the database, even with its own hash recomputed', async () => {
    const since = Date.now();
    await checked(1, since);
    const original = await receipt(5);
    await suite.db.query("UPDATE upload_attempts SET exchange_code = '-1051', exchange_message = 'refused' WHERE receipt_seq = 5");
    const changed = /BROKEN at seq 5, .*the hash does not match the receipt: the receipt, or the log it names, was changed after it was recorded/;
    expect(await auditVerify(await audit.exportTo('edited.jsonl'), '--pubkey', pubkey)).toEqual({ code: 1, out: expect.stringMatching(changed) });
    expect(await auditVerify(await audit.exportTo('edited.csv', 'format=csv'), '--pubkey', pubkey)).toEqual({ code: 1, out: expect.stringMatching(changed) });
    const broken = await checked(0, Date.now());
    expect(broken.ok).toBe(0);
    expect(await audit.json('/v1/audit/verify')).toMatchObject({
      ok: false,
      broken: { chain: 'receipts', seq: '5', reason: expect.stringContaining('the receipt, or the log it names, was changed') },
    });

    // Whoever edits it may recompute its hash too: the next receipt's link then no longer points at it.
    const lines = (await import('node:fs'))
      .readFileSync(await audit.exportTo('rehash.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => parseJson(l) as any);
    const edited = lines.find((l) => l.type === 'receipt' && l.seq === '5');
    await suite.db.query('UPDATE upload_attempts SET hash = $1 WHERE receipt_seq = 5', [chainHash(edited.prevHash, canonicalReceipt(edited.receipt))]);
    expect(await auditVerify(await audit.exportTo('rehashed.jsonl'), '--pubkey', pubkey)).toEqual({
      code: 1,
      out: expect.stringMatching(/BROKEN at seq 6, .*prevHash does not match the hash of seq 5/),
    });

    await suite.db.query('UPDATE upload_attempts SET exchange_code = $1, exchange_message = $2, hash = $3 WHERE receipt_seq = 5', [
      original.exchange_code,
      original.exchange_message,
      original.hash,
    ]);
    await checked(1, Date.now());
    expect((await auditVerify(await audit.exportTo('restored.jsonl'), '--pubkey', pubkey)).code).toBe(0);
  }, 90_000);

  it('catches an uploaded log set to failed: the check reports it, and the export still shows its receipt', async () => {
    await suite.db.query("UPDATE ai_logs SET status = 'failed', last_error = 'permanent: never sent', uploaded_at = NULL WHERE seq = 7");
    const broken = await waitFor('the check to see it', async () => {
      const check = await audit.json('/v1/audit/verify');
      return check.ok ? undefined : check;
    });
    expect(broken.broken).toMatchObject({
      chain: 'logs',
      seq: '7',
      reason: expect.stringMatching(/^the log is failed, but its last receipt \(seq \d+\) says uploaded: its status was changed outside the gateway$/),
    });
    expect(await audit.json('/v1/audit/head')).toMatchObject({ check: { ok: false, broken: { seq: '7' } } });
    await checked(0, Date.now());
    // The export takes a log's upload from the receipt chain, so the change does not reach it.
    const lines = (await import('node:fs'))
      .readFileSync(await audit.exportTo('failed.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => parseJson(l) as any);
    const last = (
      await suite.db.query('SELECT a.* FROM upload_attempts a JOIN ai_logs l ON l.id = a.log_id WHERE l.seq = 7 ORDER BY a.receipt_seq DESC LIMIT 1')
    ).rows[0];
    expect(lines.find((l) => l.type === 'log' && l.seq === '7').upload).toEqual({
      receiptSeq: last.receipt_seq,
      status: 'uploaded',
      at: last.finished_at.toISOString(),
      exchangeCode: last.exchange_code,
    });

    await suite.db.query("UPDATE ai_logs SET status = 'uploaded', last_error = NULL, uploaded_at = now() WHERE seq = 7");
    await checked(1, Date.now());
  }, 90_000);

  it('catches a receipt deleted, and an attempt inserted around the chain', async () => {
    const removed = (await suite.db.query('DELETE FROM upload_attempts WHERE receipt_seq = 9 RETURNING *')).rows[0];
    expect(await auditVerify(await audit.exportTo('deleted.jsonl'), '--pubkey', pubkey)).toEqual({
      code: 1,
      out: expect.stringMatching(/BROKEN at seq 10, .*seq 10 follows seq 8: receipts are missing/),
    });
    expect(await audit.json('/v1/audit/verify')).toMatchObject({
      ok: false,
      broken: { chain: 'receipts', seq: '9', reason: expect.stringContaining('receipt seq 9 is missing') },
    });
    const columns = Object.keys(removed);
    await suite.db.query(
      `INSERT INTO upload_attempts (${columns.join(',')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(',')})`,
      columns.map((c) => removed[c]),
    );
    await checked(1, Date.now());

    await suite.db.query(
      `INSERT INTO upload_attempts (log_id, account_id, target, url, started_at, finished_at, latency_ms, outcome, http_status, exchange_code)
       SELECT log_id, account_id, target, url, started_at, finished_at, latency_ms, 'uploaded', 200, '00000' FROM upload_attempts WHERE receipt_seq = 2`,
    );
    expect(await audit.json('/v1/audit/verify')).toMatchObject({
      ok: false,
      broken: { chain: 'receipts', reason: '1 upload attempts are outside the receipt chain: they were not recorded through the gateway' },
    });
    await suite.db.query('DELETE FROM upload_attempts WHERE receipt_seq IS NULL');
    await checked(1, Date.now());
  }, 90_000);
});
