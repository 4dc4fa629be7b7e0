import { type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceptedLog, type LogRow } from '#libs/ai-log';
import { AuditCheckpoints } from '#libs/audit';
import { canonicalLog, chainHash, GENESIS_HASH } from '#libs/audit-chain';
import { formatVerifierKey, generateKey, SIGNATURE_TYPE_ED25519 } from '#libs/signed-note';
import { auditVerify } from './support/audit-verify-cli.js';
import { spawnChild } from './support/child-processes.js';
import { closedPort } from './support/closed-port.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-witness-tests';
const ORIGIN = 'witnessed.example.org';
const WITNESS_MAIN = new URL('../dist/apps/witness/src/main.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'audit-witnesses-'));

// The gateway's checkpoint key, made here so that the witnesses can be told it before the gateway starts.
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const SIGNING_KEY = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const GATEWAY_VKEY = formatVerifierKey({
  name: ORIGIN,
  type: SIGNATURE_TYPE_ED25519,
  publicKey: Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'),
});

interface RunningWitness {
  name: string;
  vkey: string;
  signerKey: string;
  port: number;
  stateFile: string;
  child?: ChildProcess;
}

const witnesses: RunningWitness[] = ['w1.example', 'w2.example', 'w3.example'].map((name) => {
  const { signerKey, verifierKey } = generateKey(name);
  return { name, vkey: verifierKey, signerKey, port: 0, stateFile: join(dir, `${name}.json`) };
});

async function startWitness(w: RunningWitness): Promise<void> {
  w.child = spawnChild(process.execPath, [WITNESS_MAIN], {
    env: {
      PATH: process.env.PATH,
      WITNESS_KEY: w.signerKey,
      WITNESS_LOGS: `${ORIGIN}/* ${GATEWAY_VKEY}`,
      WITNESS_STATE_FILE: w.stateFile,
      WITNESS_PORT: String(w.port),
      WITNESS_HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`witness ${w.name} to answer`, () =>
    fetch(`http://127.0.0.1:${w.port}/`).then(
      (res) => (res.ok ? true : undefined),
      () => undefined,
    ),
  );
}

describe('witnesses cosign the checkpoints (c2sp.org/tlog-witness), and refuse a rewritten history', () => {
  const env: Record<string, string> = { AGENT_API_KEY: KEY, AUDIT_ORIGIN: ORIGIN, AUDIT_SIGNING_KEY: SIGNING_KEY };
  beforeAll(async () => {
    for (const w of witnesses) {
      w.port = await closedPort();
      await startWitness(w);
    }
    env.AUDIT_WITNESSES = witnesses.map((w) => `http://127.0.0.1:${w.port} ${w.vkey}`).join(';');
  }, 60_000);
  const suite = gatewaySuite(env, { worker: false });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${suite.harness!.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
  const post = async (n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await call('/v1/ai-logs', {
        method: 'POST',
        body: `{"stage":"decision","model":"m","input":{"i":${i}},"output":{},"explanation":"why ${i}"}`,
      });
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as { id: string }).id);
    }
    return ids;
  };
  const checkpoint = async () => {
    const res = await call('/v1/audit/checkpoints', { method: 'POST' });
    expect({ status: res.status, body: res.status === 200 ? '' : await res.text() }).toEqual({ status: 200, body: '' });
  };
  const note = async () => (await call('/v1/audit/checkpoint')).text();
  const head = async (): Promise<{
    witnesses: Array<{ witness: string; outcome: string; cosignedSize: string; cosignedLatest: boolean; error: string | null }>;
  }> => (await call('/v1/audit/head')).json() as never;
  const proofFile = async (id: string, name: string) => {
    const file = join(dir, name);
    writeFileSync(file, await (await call(`/v1/ai-logs/${id}/proof`)).text());
    return file;
  };
  const witnessArgs = () => witnesses.flatMap((w) => ['--witness', w.vkey]);
  let ids: string[] = [];

  it('puts every witness cosignature in the checkpoint and the proofs, and reports each witness on the head', async () => {
    ids = await post(5);
    await checkpoint();
    const signed = await note();
    for (const w of witnesses) expect(signed).toContain(`\n— ${w.name} `);
    const { witnesses: states } = await head();
    expect(states.map((s) => [s.outcome, s.cosignedSize])).toEqual([
      ['cosigned', '5'],
      ['cosigned', '5'],
      ['cosigned', '5'],
    ]);
    const file = await proofFile(ids[2], 'cosigned.tlog-proof');
    const cli = await auditVerify('--proof', file, '--key', GATEWAY_VKEY, ...witnessArgs(), '--min-cosignatures', '3');
    expect(cli).toMatchObject({ code: 0 });
    for (const w of witnesses) expect(cli.out).toMatch(new RegExp(`cosigned by:.*${w.name}`));
    // k of n: more than were given cannot be met.
    expect(await auditVerify('--proof', file, '--key', GATEWAY_VKEY, ...witnessArgs(), '--min-cosignatures', '4')).toMatchObject({
      code: 1,
      out: expect.stringContaining('3 of the witnesses given cosigned the checkpoint'),
    });
    const metrics = await (await fetch(`${suite.harness!.apiUrl}/metrics`)).text();
    expect(metrics.match(/^gateway_audit_witness_ok\{account="default",witness="[^"]+"\} 1$/gm)).toHaveLength(3);
  });

  it('sends the growth with a consistency proof from what each witness cosigned', async () => {
    ids.push(...(await post(4)));
    await checkpoint();
    expect((await head()).witnesses.map((s) => s.cosignedSize)).toEqual(['9', '9', '9']);
    expect((await note()).split('\n')[1]).toBe('9');
  });

  it('keeps going without a dead witness, says so, and asks it again once it is back', async () => {
    const dead = witnesses[1];
    dead.child!.kill('SIGKILL');
    await waitFor('the witness to exit', async () => (dead.child!.exitCode !== null || dead.child!.signalCode !== null ? true : undefined));
    ids.push(...(await post(1)));
    await checkpoint();
    const states = (await head()).witnesses;
    expect(states[1]).toMatchObject({ outcome: 'unreachable', cosignedSize: '9', cosignedLatest: false });
    expect(states[0]).toMatchObject({ outcome: 'cosigned', cosignedSize: '10', cosignedLatest: true });
    expect(await note()).not.toContain(`— ${dead.name} `);
    // A log the fully cosigned checkpoint covers keeps getting that one; the new log gets the newer one.
    const covered = await (await call(`/v1/ai-logs/${ids[0]}/proof`)).text();
    expect(covered).toContain(`— ${dead.name} `);
    expect(covered).toMatch(/\n9\n/);
    expect(await (await call(`/v1/ai-logs/${ids[9]}/proof`)).text()).toMatch(/\n10\n/);

    await startWitness(dead);
    await checkpoint(); // the heads have not moved: the latest checkpoint goes to the witness that lacks it
    expect((await head()).witnesses[1]).toMatchObject({ outcome: 'cosigned', cosignedSize: '10' });
    expect(await note()).toContain(`— ${dead.name} `);
  });

  it('sends a checkpoint that a crash left unsent to every witness at the next check', async () => {
    // As if the process died between signing the checkpoint and asking the witnesses.
    await suite.db.query(`UPDATE audit_checkpoints SET note = regexp_replace(note, '— w[0-9].example [^\\n]*\\n', '', 'g') WHERE note IS NOT NULL`);
    expect((await head()).witnesses.map((s) => s.cosignedLatest)).toEqual([false, false, false]);
    await suite.harness!.gateway.api.app.get(AuditCheckpoints).cosignMissing('default'); // what each periodic check does
    expect((await head()).witnesses.map((s) => [s.outcome, s.cosignedLatest])).toEqual([
      ['cosigned', true],
      ['cosigned', true],
      ['cosigned', true],
    ]);
    for (const w of witnesses) expect(await note()).toContain(`— ${w.name} `);
  });

  /** What an attacker with the database does: rewrites log seq 2's explanation and every link after it, consistently. */
  async function rewriteHistory(): Promise<void> {
    const { rows } = await suite.db.query<LogRow>(
      `SELECT id::text, account_id, agent_key_id, seq::text AS seq, prev_hash, hash, received_at, order_id::text AS order_id, stage, model,
              input, output, explanation, NULL AS model_calls, status::text AS status FROM ai_logs ORDER BY ai_logs.seq`,
    );
    let prev = GENESIS_HASH;
    for (const row of rows) {
      if (row.seq === '2') row.explanation = 'a human decided this';
      const hash = chainHash(prev, canonicalLog(acceptedLog(row)));
      await suite.db.query('UPDATE ai_logs SET explanation = $1, prev_hash = $2, hash = $3 WHERE id = $4', [row.explanation, prev, hash, row.id]);
      prev = hash;
    }
    await suite.db.query('UPDATE audit_heads SET hash = $1', [prev]);
    for (const table of ['audit_checks', 'audit_log_tree', 'audit_checkpoints', 'audit_witnesses']) await suite.db.query(`DELETE FROM ${table}`);
  }

  it('gets a rewritten history signed by the gateway, and refused by every witness, visibly', async () => {
    await rewriteHistory();
    await checkpoint(); // the server signs what its check verified: the forged chain is self-consistent
    const states = (await head()).witnesses;
    expect(states.map((s) => s.outcome)).toEqual(['refused', 'refused', 'refused']);
    for (const s of states) expect(s.error).toMatch(/different tree of 10 logs/);
    const signed = await note();
    for (const w of witnesses) expect(signed).not.toContain(`— ${w.name} `);
    const file = await proofFile(ids[1], 'forged.tlog-proof');
    expect(await auditVerify('--proof', file, '--key', GATEWAY_VKEY, ...witnessArgs())).toMatchObject({
      code: 1,
      out: expect.stringContaining('0 of the witnesses given cosigned'),
    });
    const metrics = await (await fetch(`${suite.harness!.apiUrl}/metrics`)).text();
    expect(metrics.match(/^gateway_audit_witness_ok\{account="default",witness="[^"]+"\} 0$/gm)).toHaveLength(3);

    // The forged tree grown by one more log: the witnesses check the consistency proof from the 10 logs they cosigned.
    await post(1);
    await checkpoint();
    for (const s of (await head()).witnesses) {
      expect(s.outcome).toBe('refused');
      expect(s.error).toMatch(/consistency proof from the 10 logs it cosigned does not hold/);
    }
  });
});
