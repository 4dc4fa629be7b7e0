import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ed25519CosignatureVerifier,
  ed25519Signer,
  ed25519Verifier,
  formatCheckpoint,
  generateKey,
  type NoteSigner,
  openCheckpoint,
  signNote,
} from '#libs/signed-note';
import { spawnChild } from './support/child-processes.js';
import { waitFor } from './support/wait-for.js';

// The built witness (`npm run start:witness`; the e2e run builds first) as a process of its own, over HTTP: every
// answer of c2sp.org/tlog-witness's add-checkpoint, its memory across SIGKILL, and hostile bodies.
const MAIN = new URL('../dist/apps/witness/src/main.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'witness-e2e-'));
const STATE_FILE = join(dir, 'state', 'witness-state.json');
const WITNESS_KEY = generateKey('witness.e2e.example/w1').signerKey;
const LOG_KEY = generateKey('weex-ai-log-gateway.local');
const LOG_SIGNER = ed25519Signer(LOG_KEY.signerKey);

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** RFC 9162 §2.1, written out as the RFC defines it: independent of libs/merkle-tree, which the witness verifies with. */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return sha256(Buffer.of(0), leaves[0]);
  const k = split(leaves.length);
  return sha256(Buffer.of(1), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}
function subproof(m: number, leaves: Buffer[], complete: boolean): Buffer[] {
  if (m === leaves.length) return complete ? [] : [mth(leaves)];
  const k = split(leaves.length);
  if (m <= k) return [...subproof(m, leaves.slice(0, k), complete), mth(leaves.slice(k))];
  return [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}

/** A log of random entries under one origin, its checkpoints signed with the gateway-like key. */
class Log {
  readonly entries: Buffer[] = [];
  constructor(readonly origin: string) {}
  grow(count: number): this {
    for (let i = 0; i < count; i++) this.entries.push(randomBytes(24));
    return this;
  }
  checkpoint(size = this.entries.length, signer: NoteSigner = LOG_SIGNER, root = mth(this.entries.slice(0, size))): string {
    return signNote(formatCheckpoint({ origin: this.origin, size: BigInt(size), rootHash: root, extensions: [] }), signer);
  }
  body(old: number, size = this.entries.length): string {
    const proof = old === 0 || old === size ? [] : subproof(old, this.entries.slice(0, size), true);
    return `old ${old}\n${proof.map((hash) => `${hash.toString('base64')}\n`).join('')}\n${this.checkpoint(size)}`;
  }
}

class WitnessProcess {
  private output = '';
  url = '';
  private constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk) => (this.output += chunk));
    child.stderr!.on('data', (chunk) => (this.output += chunk));
  }

  static async start(): Promise<WitnessProcess> {
    const env = {
      PATH: process.env.PATH,
      WITNESS_KEY,
      WITNESS_LOGS: `weex-ai-log-gateway.local/* ${LOG_KEY.verifierKey}`,
      WITNESS_STATE_FILE: STATE_FILE,
      WITNESS_PORT: '0',
      DATA_DIR: dir,
    };
    const witness = new WitnessProcess(spawnChild(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    witness.url = await waitFor('the witness to listen', async () => {
      if (witness.child.exitCode !== null) throw new Error(`the witness exited with ${witness.child.exitCode}: ${witness.output}`);
      return /listening on (http:\/\/\S+?):? /.exec(witness.output)?.[1];
    });
    return witness;
  }

  get log(): string {
    return this.output;
  }

  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    if (this.child.exitCode === null && this.child.signalCode === null) await once(this.child, 'exit');
  }

  async post(body: string | Buffer): Promise<{ status: number; type: string | null; text: string }> {
    const res = await fetch(`${this.url}/add-checkpoint`, { method: 'POST', body });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  }
}

describe('the witness process (c2sp.org/tlog-witness)', () => {
  const log = new Log('weex-ai-log-gateway.local/default').grow(5);
  let witness: WitnessProcess;
  let verifierKey = '';
  beforeAll(async () => {
    witness = await WitnessProcess.start();
  });
  afterAll(async () => {
    await witness.kill();
  });

  /** A 200 whose lines are a cosignature of the witness's key over the checkpoint, dated now. */
  const expectCosigned = (answer: { status: number; text: string }, size = log.entries.length) => {
    expect({ status: answer.status, text: answer.text }).toEqual({ status: 200, text: expect.stringMatching(/^— witness\.e2e\.example\/w1 \S+\n$/) });
    const opened = openCheckpoint(log.checkpoint(size) + answer.text, {
      origin: log.origin,
      logVerifiers: [ed25519Verifier(LOG_KEY.verifierKey)],
      cosignerVerifiers: [ed25519CosignatureVerifier(verifierKey)],
    });
    expect(opened.cosignatures).toHaveLength(1);
    expect(Math.abs(Number(opened.cosignatures[0].timestamp) - Date.now() / 1000)).toBeLessThan(60);
  };
  const expectSize = (answer: { status: number; type: string | null; text: string }, size: number) =>
    expect(answer).toEqual({ status: 409, type: 'text/x.tlog.size', text: `${size}\n` });

  it('says its name and verifier key on GET /health and GET /', async () => {
    for (const path of ['/health', '/']) {
      const text = await (await fetch(`${witness.url}${path}`)).text();
      verifierKey = /^verifier key: (\S+)$/m.exec(text)![1];
      expect(text).toContain('name: witness.e2e.example/w1\n');
    }
    expect(verifierKey).toMatch(/^witness\.e2e\.example\/w1\+[0-9a-f]{8}\+/);
  });

  it('cosigns a first checkpoint, then each growth with a consistency proof from the size it cosigned', async () => {
    expectCosigned(await witness.post(log.body(0)));
    for (const grow of [1, 2, 8, 48, 100, 1, 300]) {
      const old = log.entries.length;
      log.grow(grow);
      expectCosigned(await witness.post(log.body(old)));
    }
    // The same tree again: cosigned again, nothing changes.
    expectCosigned(await witness.post(log.body(log.entries.length)));
    expect(JSON.parse(readFileSync(STATE_FILE, 'utf8'))[log.origin]).toEqual({ size: '465', root: mth(log.entries).toString('base64') });
  });

  it('answers 409 with its size for a stale old size, and for another tree of that size', async () => {
    expectSize(await witness.post(log.body(0)), 465);
    expectSize(await witness.post(log.body(200)), 465);
    const fork = new Log(log.origin).grow(465);
    expectSize(await witness.post(fork.body(465)), 465);
  });

  it('answers 422 for a proof that does not verify, or a proof from old 0', async () => {
    const fork = new Log(log.origin).grow(500);
    const forked = await witness.post(
      `old 465\n${subproof(465, fork.entries, true)
        .map((h) => `${h.toString('base64')}\n`)
        .join('')}\n${fork.checkpoint()}`,
    );
    expect(forked).toEqual({
      status: 422,
      type: 'text/plain; charset=utf-8',
      text: expect.stringMatching(/^the consistency proof from size 465 to 500 does not verify/),
    });
    const fresh = new Log('weex-ai-log-gateway.local/acct-2').grow(4);
    const fromZero = await witness.post(`old 0\n${sha256().toString('base64')}\n\n${fresh.checkpoint()}`);
    expect(fromZero).toEqual({ status: 422, type: 'text/plain; charset=utf-8', text: 'the consistency proof must be empty when the old size is 0\n' });
  });

  it('answers 404 for an origin it does not know, 403 without a trusted signature, 400 for an old size beyond the checkpoint', async () => {
    const other = new Log('other.example/log').grow(3);
    expect(await witness.post(other.body(0))).toMatchObject({ status: 404, text: expect.stringContaining('unknown origin "other.example/log"') });
    const nested = new Log('weex-ai-log-gateway.local/a/b').grow(3);
    expect((await witness.post(nested.body(0))).status).toBe(404);
    const stranger = ed25519Signer(generateKey('weex-ai-log-gateway.local').signerKey);
    const unsigned = `old 465\n\n${log.checkpoint(465, stranger)}`;
    expect(await witness.post(unsigned)).toMatchObject({ status: 403, text: expect.stringMatching(/^no signature by a key trusted for/) });
    expect(await witness.post(`old 466\n\n${log.checkpoint()}`)).toMatchObject({
      status: 400,
      text: "old size 466 is greater than the checkpoint's size 465\n",
    });
  });

  it('remembers across SIGKILL: a stale old size is 409, another tree of a cosigned size is never cosigned', async () => {
    for (const grow of [1, 30, 7]) {
      const old = log.entries.length;
      log.grow(grow);
      expectCosigned(await witness.post(log.body(old)));
      await witness.kill();
      witness = await WitnessProcess.start();
      expectSize(await witness.post(log.body(old)), log.entries.length);
      const fork = new Log(log.origin).grow(log.entries.length);
      expectSize(await witness.post(fork.body(log.entries.length)), log.entries.length);
      const longer = new Log(log.origin).grow(log.entries.length + 5);
      expect((await witness.post(`old ${log.entries.length}\n${sha256().toString('base64')}\n\n${longer.checkpoint()}`)).status).toBe(422);
    }
    expectCosigned(await witness.post(log.body(log.entries.length)));
  });

  it('answers every hostile body with a 4xx that says why, and keeps its state', async () => {
    const size = log.entries.length;
    const valid = log.body(size - 10, size);
    const checkpoint = log.checkpoint();
    const hash = `${sha256().toString('base64')}\n`;
    const signed = (text: string) => signNote(text, LOG_SIGNER);
    const root = mth(log.entries).toString('base64');
    const hostile: Array<[string, string | Buffer, number, RegExp]> = [
      ['an empty body', '', 400, /must start with an old size line/],
      ['a 10 MB body', Buffer.alloc(10 * 1024 * 1024, 0x61), 413, /larger than 65536 bytes/],
      ['64 proof lines', `old ${size}\n${hash.repeat(64)}\n${checkpoint}`, 400, /more than 63 consistency proof lines/],
      ['bytes that are not UTF-8', Buffer.concat([Buffer.from(`old ${size}\n\n`), Buffer.from([0xc0, 0xaf]), Buffer.from(checkpoint)]), 400, /not valid UTF-8/],
      ['an old size of 2^64', `old 18446744073709551616\n\n${checkpoint}`, 400, /at most 2\^63-1/],
      ['an old size with a leading zero', `old 0${size}\n\n${checkpoint}`, 400, /without leading zeros/],
      ['a checkpoint size of 2^64', `old ${size}\n\n${signed(`${log.origin}\n18446744073709551616\n${root}\n`)}`, 400, /tree size is not a decimal uint64/],
      ['a checkpoint size of 2^63', `old ${size}\n\n${signed(`${log.origin}\n9223372036854775808\n${root}\n`)}`, 400, /beyond 2\^63-1/],
      ['a checkpoint size with a leading zero', `old ${size}\n\n${signed(`${log.origin}\n0${size}\n${root}\n`)}`, 400, /without leading zeros/],
      ['a proof line that is not a hash', `old ${size - 10}\nnot-base64\n\n${checkpoint}`, 400, /line 2: a consistency proof line must be one 32-byte hash/],
      ['CRLF line ends', valid.replaceAll('\n', '\r\n'), 400, /old size must be an ASCII decimal/],
    ];
    for (const [what, body, status, message] of hostile) {
      const answer = await witness.post(body);
      expect({ what, status: answer.status, type: answer.type, text: answer.text }).toEqual({
        what,
        status,
        type: 'text/plain; charset=utf-8',
        text: expect.stringMatching(message),
      });
    }
    // Every truncation of a valid body: never cosigned, never a 5xx.
    for (let cut = 0; cut < valid.length; cut++) {
      const answer = await witness.post(valid.slice(0, cut));
      expect({ cut, status: answer.status }).toEqual({ cut, status: 400 });
      expect(answer.text.length).toBeGreaterThan(10);
    }
    expect((await fetch(`${witness.url}/add-checkpoint`)).status).toBe(405);
    expect((await fetch(`${witness.url}/nothing-here`)).status).toBe(404);
    expectSize(await witness.post(log.body(0)), size);
    expectCosigned(await witness.post(log.body(size)));
  });

  it('logs one JSON line per answer with the origin, sizes and status, and never its key', async () => {
    const lines = witness.log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'cosigned', status: 200, origin: log.origin, oldSize: String(log.entries.length) }));
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'refused', status: 409, origin: log.origin, oldSize: '0' }));
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'refused', status: 413 }));
    // PRIVATE+KEY+<name>+<hash>+<base64 key>: the key's base64 may hold a '+' itself, so take all after the fourth.
    expect(witness.log).not.toContain(WITNESS_KEY.split('+').slice(4).join('+'));
    expect(witness.log).not.toContain('PRIVATE+KEY');
  });
});
