import { canonicalLog, chainHash } from '#libs/audit-chain';
import { parseJson } from '#libs/common';
import { auditTrail } from '../support/audit-trail.js';
import { auditVerify } from '../support/audit-verify-cli.js';
import { gatewaySuite } from '../support/gateway-suite.js';

// Issue 15 §6: deleting the oldest logs (seq 1, or 1-29) went unnoticed: an export starting at seq 2 verified as
// unbroken, even with --pubkey and --head, and /v1/audit/head still named the deleted rows' head.
const log = (i: number) => ({
  orderId: `${737185556881998000n + BigInt(i)}`,
  stage: 'decision',
  model: 'm-v1',
  input: { i },
  output: { side: 'BUY' },
  explanation: `reason ${i}`,
});
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('deleting the oldest logs is caught by the export, the head and the server check', () => {
  // The periodic work is pushed out: each test runs the check through GET /v1/audit/verify.
  // One upload at a time: receipts then follow log order (see beforeAll).
  const suite = gatewaySuite({ AUDIT_CHECK_INTERVAL_MS: '3600000', AUDIT_CHECKPOINT_INTERVAL_MS: '3600000', UPLOAD_CONCURRENCY: '1' });
  const audit = auditTrail(suite);
  let pubkey = '';
  let head = '';

  /** Deletes logs (their upload attempts go with them), and answers how to put every row back. */
  async function deleteLogs(where: string): Promise<() => Promise<void>> {
    const attempts = (await suite.db.query(`SELECT a.* FROM upload_attempts a JOIN ai_logs l ON l.id = a.log_id WHERE l.${where}`)).rows;
    const logs = (await suite.db.query(`DELETE FROM ai_logs WHERE ${where} RETURNING *`)).rows;
    return async () => {
      await insert('ai_logs', logs);
      await insert('upload_attempts', attempts);
    };
  }
  async function insert(table: string, rows: Array<Record<string, unknown>>): Promise<void> {
    for (const row of rows) {
      const columns = Object.keys(row);
      await suite.db.query(
        `INSERT INTO ${table} (${columns.join(',')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(',')})`,
        columns.map((c) => row[c]),
      );
    }
  }
  const receivedAt = async (seq: number): Promise<string> =>
    (await suite.db.query('SELECT received_at FROM ai_logs WHERE seq = $1', [seq])).rows[0].received_at.toISOString();

  beforeAll(async () => {
    // 60 logs in three rounds, all uploaded, with a checkpoint signed after the first and the second round.
    for (const round of [0, 1, 2]) {
      await audit.post(range(round * 20 + 1, 20).map(log));
      await audit.uploaded((round + 1) * 20);
      if (round < 2) expect(await audit.json('/v1/audit/checkpoints', { method: 'POST' })).toMatchObject({ seq: String((round + 1) * 20) });
    }
    // The deletions below assume receipts in log order (one upload at a time): were log 29 uploaded after log 30,
    // deleting logs 1-29 would also leave a gap in the receipts of the window from log 30, a break and not a partial.
    const order = await suite.db.query('SELECT l.seq FROM upload_attempts a JOIN ai_logs l ON l.id = a.log_id ORDER BY a.receipt_seq');
    expect(order.rows.map((r) => Number(r.seq))).toEqual(range(1, 60));
    pubkey = await audit.pubkey();
    head = (await audit.json('/v1/audit/head')).hash;
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: true, complete: true, logs: { verifiedSeq: '60' }, broken: null });
  }, 120_000);

  it('fails an export of the whole chain that starts at seq 2, and reports it on the head and in the check', async () => {
    const restore = await deleteLogs('seq = 1');
    const broken = /BROKEN at seq 2, .*the export covers the chain from its start, but its first log is seq 2: logs 1\.\.1 are missing/;
    expect(await auditVerify(await audit.exportTo('no-seq-1.jsonl'), '--pubkey', pubkey, '--head', head)).toEqual({
      code: 1,
      out: expect.stringMatching(broken),
    });
    expect(await auditVerify(await audit.exportTo('no-seq-1.csv', 'format=csv'), '--pubkey', pubkey, '--head', head)).toEqual({
      code: 1,
      out: expect.stringMatching(broken),
    });
    expect(await audit.json('/v1/audit/head')).toMatchObject({
      seq: '60',
      stored: { firstSeq: '2', lastSeq: '60' },
      check: { ok: false, broken: { chain: 'logs', seq: '1', reason: 'the first stored log is seq 2: logs 1..1 are missing' } },
    });
    expect(await audit.json('/v1/audit/verify')).toMatchObject({
      ok: false,
      broken: { chain: 'logs', seq: '1', reason: 'log seq 1 is missing: it was verified earlier and is no longer stored' },
    });

    await restore();
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: true, broken: null });
    expect(await audit.json('/v1/audit/head')).toMatchObject({ check: { ok: true, broken: null } });
    expect((await auditVerify(await audit.exportTo('restored.jsonl'), '--pubkey', pubkey, '--head', head)).code).toBe(0);
  }, 60_000);

  it('fails a window that starts after the checkpoint before it once seq 1-29 are gone, and calls it partial without that checkpoint', async () => {
    // The window from log 30 begins after the checkpoint of seq 20, the latest one signed before it.
    const window = `from=${await receivedAt(30)}`;
    const intact = await audit.exportTo('window.jsonl', window);
    expect(await auditVerify(intact, '--pubkey', pubkey)).toEqual({
      code: 0,
      out: expect.stringContaining('OK: 40 logs, seq 21..60, unbroken after a signed checkpoint'),
    });
    expect(await auditVerify(intact)).toEqual({
      code: 3,
      out: expect.stringContaining('partial: starts at seq 21 after a checkpoint whose signature was not checked (give --pubkey)'),
    });
    expect((await auditVerify(intact, '--allow-partial')).code).toBe(0);

    const restoreLogs = await deleteLogs('seq BETWEEN 1 AND 29');
    expect(await auditVerify(await audit.exportTo('window-no-1-29.jsonl', window), '--pubkey', pubkey)).toEqual({
      code: 1,
      out: expect.stringMatching(/BROKEN at seq 30, .*seq 30 follows the checkpoint at seq 20: logs are missing/),
    });
    expect(await auditVerify(await audit.exportTo('no-1-29.csv', 'format=csv'), '--pubkey', pubkey, '--head', head)).toEqual({
      code: 1,
      out: expect.stringMatching(/BROKEN at seq 30, .*its first log is seq 30: logs 1\.\.29 are missing/),
    });
    expect(await audit.json('/v1/audit/verify')).toMatchObject({
      ok: false,
      broken: { chain: 'logs', seq: '1', reason: 'log seq 1 is missing: it was verified earlier and is no longer stored' },
    });

    // With the checkpoints before it deleted as well, nothing anchors the window: partial, and a failure unless allowed.
    const checkpoints = (await suite.db.query('DELETE FROM audit_checkpoints WHERE seq < 30 RETURNING *')).rows;
    const orphan = await audit.exportTo('window-orphan.jsonl', window);
    expect(await auditVerify(orphan, '--pubkey', pubkey)).toEqual({ code: 3, out: expect.stringContaining('partial: starts at seq 30, not anchored') });
    expect(await auditVerify(orphan, '--pubkey', pubkey, '--allow-partial')).toEqual({ code: 0, out: expect.stringContaining('PARTIAL (allowed)') });

    await insert('audit_checkpoints', checkpoints);
    await restoreLogs();
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: true });
    expect((await auditVerify(await audit.exportTo('window-restored.jsonl', window), '--pubkey', pubkey)).code).toBe(0);
  }, 60_000);

  it('says a window with no checkpoint before it is partial: where it starts, and that nothing anchors it', async () => {
    const early = await audit.exportTo('early.csv', `format=csv&from=${await receivedAt(10)}`);
    const verified = await auditVerify(early, '--pubkey', pubkey);
    expect(verified).toEqual({ code: 3, out: expect.stringContaining('partial: starts at seq 10, not anchored') });
    expect(verified.out).toContain('PARTIAL: 51 logs, seq 10..60');
  }, 30_000);

  it('finds a log changed long after it was checked, and a history rewritten with hashes to match', async () => {
    await suite.db.query("UPDATE ai_logs SET explanation = 'written after the fact' WHERE seq = 45");
    expect(await audit.json('/v1/audit/verify')).toMatchObject({
      ok: false,
      broken: { chain: 'logs', seq: '45', reason: 'the hash does not match the log: the log was changed after it was accepted' },
    });
    await suite.db.query("UPDATE ai_logs SET explanation = 'reason 45' WHERE seq = 45");
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: true });

    // Log 59 rewritten, and its hash, log 60's link and hash, and the head recomputed to match.
    const { rows } = await suite.db.query(
      `SELECT id::text, account_id, agent_key_id, seq::text AS seq, prev_hash, hash, received_at, order_id::text AS order_id, stage, model, input, output, explanation
       FROM ai_logs WHERE seq >= 59 ORDER BY seq`,
    );
    let prev = rows[0].prev_hash;
    for (const r of rows) {
      const explanation = r.seq === '59' ? 'a better reason' : r.explanation;
      const canonical = canonicalLog({
        accountId: r.account_id,
        seq: r.seq,
        id: r.id,
        receivedAt: r.received_at.toISOString(),
        agentKeyId: r.agent_key_id,
        orderId: r.order_id,
        stage: r.stage,
        model: r.model,
        input: parseJson(r.input),
        output: parseJson(r.output),
        explanation,
      });
      const hash = chainHash(prev, canonical);
      await suite.db.query('UPDATE ai_logs SET explanation = $1, prev_hash = $2, hash = $3 WHERE seq = $4', [explanation, prev, hash, r.seq]);
      prev = hash;
    }
    await suite.db.query('UPDATE audit_heads SET hash = $1', [prev]);
    expect(await audit.json('/v1/audit/verify')).toMatchObject({
      ok: false,
      broken: { chain: 'logs', seq: '60', reason: `the head states hash ${prev} at seq 60, but the link verified there has ${head}: the logs were rewritten` },
    });
    // Its receipt names the log as it was accepted: the export breaks there already, as --head would at the end.
    expect(await auditVerify(await audit.exportTo('rewritten.jsonl'), '--pubkey', pubkey, '--head', head)).toEqual({
      code: 1,
      out: expect.stringMatching(/BROKEN at seq \d+, .*the hash does not match the receipt: the receipt, or the log it names, was changed/),
    });
    for (const r of rows)
      await suite.db.query('UPDATE ai_logs SET explanation = $1, prev_hash = $2, hash = $3 WHERE seq = $4', [r.explanation, r.prev_hash, r.hash, r.seq]);
    await suite.db.query('UPDATE audit_heads SET hash = $1', [head]);
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: true });
  }, 30_000);

  it('shows logs deleted from the end on the head at once', async () => {
    const restore = await deleteLogs('seq >= 58');
    expect(await audit.json('/v1/audit/head')).toMatchObject({
      seq: '60',
      stored: { firstSeq: '1', lastSeq: '57' },
      check: { ok: false, broken: { reason: 'the last stored log is seq 57: logs 58..60 are missing' } },
    });
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: false, broken: { chain: 'logs', seq: '58', reason: expect.stringContaining('missing') } });
    expect(await auditVerify(await audit.exportTo('no-tail.jsonl'), '--head', head)).toEqual({
      code: 1,
      out: expect.stringContaining('no log in the export has the published head'),
    });
    await restore();
    expect(await audit.json('/v1/audit/verify')).toMatchObject({ ok: true });
  }, 30_000);
});
