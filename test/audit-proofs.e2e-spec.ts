import { createHash, createPublicKey, verify } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { auditVerify } from './support/audit-verify-cli.js';
import { gatewaySuite } from './support/gateway-suite.js';

const KEY = 'agent-key-for-audit-proof-tests';
const ORIGIN = 'proofs.example.org';
const CLI = new URL('../dist/apps/audit-verify/src/main.js', import.meta.url).pathname;
const PYTHON_VERIFIER = new URL('./support/tlog_proof.py', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'audit-proofs-'));
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** RFC 9162 §2.1.1's MTH, as the RFC writes it (recursive): the reference every root and proof is compared with. */
function mth(entries: Buffer[]): Buffer {
  if (entries.length === 0) return sha256();
  if (entries.length === 1) return sha256(Buffer.of(0), entries[0]);
  let k = 1;
  while (k * 2 < entries.length) k *= 2;
  return sha256(Buffer.of(1), mth(entries.slice(0, k)), mth(entries.slice(k)));
}

const python = async (...args: string[]) =>
  promisify(execFile)('python3', [PYTHON_VERIFIER, ...args], { encoding: 'utf8' }).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, out: error.stdout }),
  );

describe('Merkle proofs and C2SP checkpoints', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, AUDIT_ORIGIN: ORIGIN }, { worker: false });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${suite.harness!.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
  const post = async (n: number, from: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = from; i < from + n; i++) {
      const body = `{"stage":"decision","model":"m","input":{"i":${i},"big":123456789012345678901234567890},"output":{"x":1.10},"explanation":"e${i}"}`;
      const res = await call('/v1/ai-logs', { method: 'POST', body });
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as { id: string }).id);
    }
    return ids;
  };
  /** The canonical entries of the account's logs in chain order, as the export carries them. */
  const entries = async (): Promise<Buffer[]> => {
    const lines = (await (await call('/v1/audit/export')).text()).trim().split('\n');
    const rows = await suite.db.query('SELECT seq::text AS seq FROM ai_logs ORDER BY seq');
    expect(lines.filter((l) => l.startsWith('{"type":"log"')).length).toBe(rows.rows.length);
    // The leaf is the canonical log the chain hash covers: recompute it from the chain, independently of the tree code.
    const { rows: links } = await suite.db.query('SELECT prev_hash, hash FROM ai_logs ORDER BY seq');
    const canon = await proofEntries(links.length);
    canon.forEach((entry, i) => expect(sha256(Buffer.from(links[i].prev_hash), entry).toString('hex')).toBe(links[i].hash));
    return canon;
  };
  let ids: string[] = [];
  const proofs = new Map<string, string>();
  /** Each log's entry as its proof file carries it. */
  const proofEntries = async (n: number): Promise<Buffer[]> => {
    const out: Buffer[] = [];
    for (const id of ids.slice(0, n)) {
      const text = await (await call(`/v1/ai-logs/${id}/proof`)).text();
      proofs.set(id, text);
      out.push(Buffer.from(/^extra (.*)$/m.exec(text)![1], 'base64'));
    }
    return out;
  };
  let vkey = '';

  it('serves the checkpoint as a signed note over the RFC 9162 root, under a key in the note verifier-key form', async () => {
    ids = await post(7, 0);
    const early = await call('/v1/ai-logs/' + ids[0] + '/proof');
    expect({ status: early.status, code: ((await early.json()) as { code: string }).code, retryAfter: early.headers.get('retry-after') }).toEqual({
      status: 409,
      code: 'PROOF_NOT_READY',
      retryAfter: '60',
    });
    expect((await call('/v1/audit/checkpoints', { method: 'POST' })).status).toBe(200);

    const vkeyRes = await call('/v1/audit/verifier-key');
    expect(vkeyRes.headers.get('content-type')).toMatch(/^text\/plain/);
    vkey = (await vkeyRes.text()).trim();
    // Base64 may hold '+': the key is everything after the second one.
    const [name, keyIdHex, ...rest] = vkey.split('+');
    const keyB64 = rest.join('+');
    expect(name).toBe(ORIGIN);
    const key = Buffer.from(keyB64, 'base64');
    expect(key[0]).toBe(0x01);
    expect(
      sha256(Buffer.from(`${name}\n`), key)
        .subarray(0, 4)
        .toString('hex'),
    ).toBe(keyIdHex);
    // The same Ed25519 key as the PEM served beside it.
    const pem = ((await (await call('/v1/audit/public-key')).json()) as { pem: string }).pem;
    expect(createPublicKey(pem).export({ format: 'jwk' }).x).toBe(key.subarray(1).toString('base64url'));

    const noteRes = await call('/v1/audit/checkpoint');
    expect(noteRes.headers.get('content-type')).toMatch(/^text\/plain/);
    const note = await noteRes.text();
    const [text, signatures] = note.split('\n\n');
    const [origin, size, root, extension] = text.split('\n');
    expect(origin).toBe(`${ORIGIN}/default`);
    expect(size).toBe('7');
    expect(Buffer.from(root, 'base64')).toEqual(mth(await entries()));
    expect(extension).toMatch(/^receipt-chain 0 0{64}$/);
    const sig = /^— (\S+) (\S+)$/.exec(signatures.trim())!;
    expect(sig[1]).toBe(ORIGIN);
    const raw = Buffer.from(sig[2], 'base64');
    expect(raw.subarray(0, 4).toString('hex')).toBe(keyIdHex);
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.subarray(1).toString('base64url') }, format: 'jwk' });
    expect(verify(null, Buffer.from(`${text}\n`), publicKey, raw.subarray(4))).toBe(true);
    // The check's view names the root it verified.
    expect(((await (await call('/v1/audit/verify')).json()) as any).logs.treeRoot).toBe(root);
  });

  it('answers each log a tlog-proof file that an independent verifier (Python, from the specs) and audit:verify accept', async () => {
    for (const [i, id] of ids.entries()) {
      const file = join(dir, `${i}.tlog-proof`);
      writeFileSync(file, proofs.get(id)!);
      const outsider = await python('inclusion', file, vkey);
      expect(outsider).toMatchObject({ code: 0 });
      expect(JSON.parse(outsider.out)).toMatchObject({ origin: `${ORIGIN}/default`, size: 7, index: i, entry: { id, seq: i + 1 } });
      const cli = await auditVerify('--proof', file, '--key', vkey);
      expect(cli).toMatchObject({ code: 0 });
      expect(cli.out).toContain(`VERIFIED: log at index ${i} (seq ${i + 1}) of ${ORIGIN}/default, in its signed tree of 7 logs`);
      // Numbers stay as written: the entry is the canonical text, not a re-serialisation.
      expect(cli.out).toContain('"big":123456789012345678901234567890');
    }
  });

  it("runs the README's example for one decision as written, with the built CLI for `npm run -s audit:verify --`", async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /```bash\n(curl [^\n]*\/checkpoints" > \/dev\/null\n[\s\S]*?)```/.exec(readme)![1];
    const script = block.replaceAll('npm run -s audit:verify --', `${process.execPath} ${CLI}`).replaceAll('weex-ai-log-gateway.local', ORIGIN);
    const env = { PATH: process.env.PATH, GATEWAY: suite.harness!.apiUrl, KEY, LOG_ID: ids[6] };
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env, encoding: 'utf8' });
    const promised = /^# (VERIFIED: .*)$/m.exec(block)![1];
    // The README's figures are an example's; the sentence is the CLI's.
    expect(stdout).toContain(promised.replace('1841', '6').replace('1842', '7').replace('weex-ai-log-gateway.local', ORIGIN).replace('1842 logs', '7 logs'));
  });

  it('refuses a proof that was changed, or checked with another key, and says why', async () => {
    const proof = proofs.get(ids[3])!;
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const entry = Buffer.from(/^extra (.*)$/m.exec(proof)![1], 'base64').toString();
    const forged = write('forged.tlog-proof', proof.replace(/^extra .*$/m, `extra ${Buffer.from(entry.replace('"e3"', '"e9"')).toString('base64')}`));
    expect(await auditVerify('--proof', forged, '--key', vkey)).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^NOT VERIFIED: the entry is not at index 3/),
    });
    expect(await python('inclusion', forged, vkey)).toMatchObject({ code: 1 });
    const moved = write('moved.tlog-proof', proof.replace(/^index 3$/m, 'index 4'));
    expect((await auditVerify('--proof', moved, '--key', vkey)).code).toBe(1);
    const otherKey = 'other.example+00000000+AQ3uQ5v1PqJ8mYl7sRkqH4tq0WfZbLxG2c9oD6jVnE1U';
    expect((await auditVerify('--proof', join(dir, '3.tlog-proof'), '--key', otherKey)).code).not.toBe(0);
    // The origin a judge expects: a proof of another account (or a look-alike one) is refused.
    expect(await auditVerify('--proof', join(dir, '3.tlog-proof'), '--key', vkey, '--origin', `${ORIGIN}/d\u0435fault`)).toMatchObject({
      code: 1,
      out: expect.stringContaining('expected "proofs.example.org/d\u0435fault"'),
    });
    expect(await auditVerify('--proof', join(dir, '3.tlog-proof'), '--key', vkey, '--origin', `${ORIGIN}/default`)).toMatchObject({ code: 0 });
    // What curl saves when the gateway answered an error instead of a proof.
    const answer = write('answer.tlog-proof', await (await call(`/v1/ai-logs/00000000-0000-7000-8000-000000000000/proof`)).text());
    expect(await auditVerify('--proof', answer, '--key', vkey)).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^NOT VERIFIED: this is not a proof file but a JSON answer/),
    });
    const truncated = write('truncated.tlog-proof', proof.slice(0, proof.length / 2));
    expect(await auditVerify('--proof', truncated, '--key', vkey)).toMatchObject({ code: 1, out: expect.stringContaining('malformed') });
    expect(await auditVerify('--proof', join(dir, '3.tlog-proof'), '--key', vkey, '--witness', 'w.example+00000000+BAAA')).toMatchObject({ code: 1 });
  });

  it('proves a later tree extends an earlier one, checked by the independent verifier', async () => {
    const before = (await (await call('/v1/audit/checkpoint')).text()).split('\n')[2];
    ids.push(...(await post(6, 7)));
    expect((await call('/v1/audit/checkpoints', { method: 'POST' })).status).toBe(200);
    const after = (await (await call('/v1/audit/checkpoint')).text()).split('\n');
    expect(after[1]).toBe('13');
    expect(Buffer.from(after[2], 'base64')).toEqual(mth(await entries()));
    for (const m of [1, 2, 4, 7, 12, 13]) {
      const res = await call(`/v1/audit/consistency?from=${m}&to=13`);
      expect(res.status).toBe(200);
      const { hashes } = (await res.json()) as { hashes: string[] };
      const rootM = mth((await entries()).slice(0, m)).toString('base64');
      if (m === 7) expect(rootM).toBe(before);
      expect(await python('consistency', String(m), '13', rootM, after[2], ...hashes)).toMatchObject({ code: 0 });
      if (hashes.length > 0) {
        const wrong = [...hashes];
        wrong[0] = Buffer.alloc(32, 7).toString('base64');
        expect((await python('consistency', String(m), '13', rootM, after[2], ...wrong)).code).toBe(1);
      }
    }
  });

  it('answers bad sizes with a 400 naming the rule, sizes beyond the tree with a 404, and unknown logs with a 404', async () => {
    const bad = async (query: string, path: string, message: RegExp) => {
      const res = await call(`/v1/audit/consistency?${query}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; errors: Array<{ path: string; message: string }> };
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.errors).toContainEqual({ path, message: expect.stringMatching(message) });
    };
    await bad('from=0&to=5', 'from', /at least 1/);
    await bad('from=6&to=5', 'from', /not be greater than to/);
    await bad('from=abc&to=5', 'from', /tree size/);
    await bad('from=1', 'to', /tree size/);
    await bad('from=01&to=5', 'from', /leading zeros/);
    await bad('from=1&to=9223372036854775808', 'to', /2\^63 - 1/);
    await bad('from=1&to=5&extra=1', 'extra', /.+/);
    const beyond = await call('/v1/audit/consistency?from=1&to=14');
    expect(beyond.status).toBe(404);
    expect(((await beyond.json()) as { message: string }).message).toMatch(/13 logs verified so far/);

    for (const id of ['00000000-0000-7000-8000-000000000000', 'not-a-log', '------------------------------------']) {
      expect((await call(`/v1/ai-logs/${id}/proof`)).status).toBe(404);
    }
    const [late] = await post(1, 13);
    const notYet = await call(`/v1/ai-logs/${late}/proof`);
    expect(notYet.status).toBe(409);
    expect(notYet.headers.get('retry-after')).toBe('60');
    expect(((await notYet.json()) as { message: string }).message).toMatch(/not covered by a signed checkpoint yet/);
    ids.push(late);
  });

  it('never serves a proof from stored hashes changed after the tree was signed', async () => {
    await suite.db.query("UPDATE audit_log_tree SET hashes = decode(repeat('ab', 32), 'hex') WHERE leaf_index = 0");
    const res = await call(`/v1/ai-logs/${ids[1]}/proof`);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toMatch(/stored tree does not match the checkpoint/);
  });

  it('builds the tree again from the stored chain, as the migration of an existing database does, to the same root', async () => {
    const signed = (await (await call('/v1/audit/checkpoint')).text()).split('\n').slice(1, 3);
    await suite.db.query('DELETE FROM audit_log_tree');
    await suite.db.query(
      "UPDATE audit_checks SET log_seq = 0, log_hash = repeat('0', 64), log_tree = '\\x', sweep_log_seq = 0, sweep_log_hash = repeat('0', 64), complete = false",
    );
    const check = (await (await call('/v1/audit/verify')).json()) as any;
    expect(check).toMatchObject({ ok: true, logs: { verifiedSeq: '14' } });
    const { rows } = await suite.db.query('SELECT count(*)::int AS n FROM audit_log_tree');
    expect(rows[0].n).toBe(14);
    const file = join(dir, 'rebuilt.tlog-proof');
    writeFileSync(file, await (await call(`/v1/ai-logs/${ids[1]}/proof`)).text());
    expect(await auditVerify('--proof', file, '--key', vkey)).toMatchObject({ code: 0 });
    expect((await (await call('/v1/audit/consistency?from=13&to=14')).json()) as any).toMatchObject({ from: '13', to: '14' });
    expect(signed[0]).toBe('13');
  });

  it('reports a stored tree state that does not fit its size, and builds the tree again from seq 1', async () => {
    await suite.db.query("UPDATE audit_checks SET log_tree = '\\x0102'");
    const check = (await (await call('/v1/audit/verify')).json()) as any;
    expect(check.ok).toBe(false);
    expect(check.broken.reason).toMatch(/stored log tree does not fit its frontier/);
    const again = (await (await call('/v1/audit/verify')).json()) as any;
    expect(again.logs.verifiedSeq).toBe('14');
  });
});
