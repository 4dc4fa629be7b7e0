import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalLog, chainHash, GENESIS_HASH } from '#libs/audit-chain';
import { parseJson } from '#libs/common';
import { auditVerify } from './support/audit-verify-cli.js';
import { gatewaySuite } from './support/gateway-suite.js';

const KEY = 'agent-key-for-audit-trail-tests';
const dir = mkdtempSync(join(tmpdir(), 'audit-'));
const log = (i: number) => ({
  orderId: `7371855568819981${String(i).padStart(2, '0')}`,
  stage: 'decision',
  model: 'm-v2',
  input: { i, big: 123456789012345678901234567890n },
  output: { side: i % 2 ? 'BUY' : 'SELL' },
  explanation: `reason ${i}`,
});
const body = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `@@${v}@@` : v)).replace(/"@@(\d+)@@"/g, '$1');

describe('tamper-evident audit trail', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY }, { worker: false });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${suite.harness!.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
  const json = async (res: Promise<Response>): Promise<any> => (await res).json();
  const exportTo = async (name: string, format = 'jsonl') => {
    const file = join(dir, name);
    writeFileSync(file, await (await call(`/v1/audit/export?format=${format}`)).text());
    return file;
  };

  it('chains every accepted log: seq without gaps, each prevHash the hash before it, each hash over the canonical log', async () => {
    for (let i = 0; i < 5; i++) expect((await call('/v1/ai-logs', { method: 'POST', body: body(log(i)) })).status).toBe(202);
    expect((await call('/v1/ai-logs/batch', { method: 'POST', body: body({ logs: [5, 6, 7, 8, 9].map(log) }) })).status).toBe(207);
    const { rows } = await suite.db.query(
      `SELECT id::text, account_id, agent_key_id, seq::text AS seq, prev_hash, hash, received_at, order_id::text AS order_id, stage, model, input, output, explanation
       FROM ai_logs ORDER BY ai_logs.seq`,
    );
    expect(rows.map((r) => r.seq)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    let prev = GENESIS_HASH;
    for (const r of rows) {
      expect(r.prev_hash).toBe(prev);
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
        explanation: r.explanation,
      });
      expect(canonical).toContain('"big":123456789012345678901234567890');
      expect(r.hash).toBe(chainHash(prev, canonical));
      prev = r.hash;
    }
    const head = await json(call('/v1/audit/head'));
    expect(head).toMatchObject({ seq: '10', hash: prev });
    const view = await json(call(`/v1/ai-logs/${rows[9].id}`));
    expect(view.chain).toEqual({ seq: '10', prevHash: rows[8].hash, hash: prev });
  });

  it('exports JSONL and CSV that verify, with signed checkpoints and a published head', async () => {
    const checkpoint = await json(call('/v1/audit/checkpoints', { method: 'POST' }));
    expect(checkpoint).toMatchObject({ seq: '10', signature: expect.any(String) });
    const pubkey = join(dir, 'audit.pub.pem');
    writeFileSync(pubkey, (await json(call('/v1/audit/public-key'))).pem);
    const jsonl = await exportTo('export.jsonl');
    const ok = await auditVerify(jsonl, '--pubkey', pubkey, '--head', checkpoint.hash);
    expect(ok).toEqual({ code: 0, out: expect.stringContaining('OK: 10 logs, seq 1..10, unbroken') });
    expect(ok.out).toContain('checkpoints: 1 signatures verified');
    expect((await auditVerify(await exportTo('export.csv', 'csv'))).code).toBe(0);
    const other = join(dir, 'other.pub.pem');
    const { generateKeyPairSync } = await import('node:crypto');
    writeFileSync(other, generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }));
    expect(await auditVerify(jsonl, '--pubkey', other)).toEqual({ code: 1, out: expect.stringContaining('not signed by the given key') });
    expect(await auditVerify(jsonl, '--head', 'ab'.repeat(32))).toEqual({
      code: 1,
      out: expect.stringContaining('no log in the export has the published head'),
    });
    expect((await call('/v1/audit/export?format=xml&from=yesterday')).status).toBe(400);
  });

  it('catches one row changed, deleted or inserted in the database', async () => {
    await suite.db.query("UPDATE ai_logs SET explanation = 'written after the fact' WHERE seq = 4");
    expect(await auditVerify(await exportTo('changed.jsonl'))).toEqual({
      code: 1,
      out: expect.stringMatching(/BROKEN at seq 4, .*the log was changed after it was accepted/),
    });
    expect(await auditVerify(await exportTo('changed.csv', 'csv'))).toEqual({ code: 1, out: expect.stringMatching(/BROKEN at seq 4, /) });
    await suite.db.query("UPDATE ai_logs SET explanation = 'reason 3' WHERE seq = 4");
    expect((await auditVerify(await exportTo('restored.jsonl'))).code).toBe(0);

    const { rows } = await suite.db.query('DELETE FROM ai_logs WHERE seq = 6 RETURNING *');
    expect(await auditVerify(await exportTo('deleted.jsonl'))).toEqual({ code: 1, out: expect.stringMatching(/BROKEN at seq 7, .*logs are missing/) });
    const row = rows[0];
    const columns = Object.keys(row);
    await suite.db.query(
      `INSERT INTO ai_logs (${columns.join(',')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(',')})`,
      columns.map((c) => row[c]),
    );

    await suite.db.query(
      `INSERT INTO ai_logs (id, account_id, agent_key_id, order_id, stage, model, input, output, explanation, received_at)
       SELECT gen_random_uuid(), account_id, agent_key_id, 737185556881998999, stage, model, input, output, 'a backdated decision', received_at - interval '1 minute'
       FROM ai_logs WHERE seq = 2`,
    );
    expect(await auditVerify(await exportTo('inserted.jsonl'))).toEqual({ code: 1, out: expect.stringContaining('a log outside the chain') });
  });
});
