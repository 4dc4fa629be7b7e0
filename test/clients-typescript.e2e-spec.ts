import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BatchRejectedError, Gateway, GatewayError, fitExplanation, parseRetryAfter } from '../clients/typescript/src/index.js';
import { closedPort } from './support/closed-port.js';
import { gatewaySuite } from './support/gateway-suite.js';

// The TypeScript client (clients/typescript) against a real gateway: its generated types in step with /docs-json, its
// calls, and its retries through a proxy that fails on purpose.
const run = promisify(execFile);
const ROOT = new URL('../', import.meta.url).pathname;
const CLIENT = join(ROOT, 'clients/typescript');
const README = readFileSync(join(CLIENT, 'README.md'), 'utf8');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const BIG = 737185556881998184n; // above 2^53: as a JS number it would read 737185556881998200
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What the proxy does with one request: answer an ErrorBody (with Retry-After when given), answer a page of its own
 * that echoes the request's headers, or forward the request and drop the answer.
 */
type Step =
  | { status: 429 | 503 | 409; retryAfter?: string }
  | 'echo-headers'
  | 'drop-answer'
  | { hostile: 'page-200' | 'empty-202' | 'huge-503' | 'redirect'; location?: string };

interface Proxy {
  url: string;
  /** The Idempotency-Key of every request that reached the proxy, in order. */
  keys: (string | undefined)[];
  close(): Promise<void>;
}

/** A proxy in front of the gateway: plays `steps` on the first requests, then forwards each to `target` as it is. */
async function proxy(target: string, steps: Step[], port = 0): Promise<Proxy> {
  const keys: (string | undefined)[] = [];
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    keys.push(req.headers['idempotency-key'] as string | undefined);
    const step = steps.shift();
    if (step === 'echo-headers') {
      res.writeHead(400, { 'content-type': 'text/html' });
      res.end(`<h1>Bad request</h1><pre>${JSON.stringify(req.headers)}</pre>`);
      return;
    }
    if (step && typeof step === 'object' && 'hostile' in step) {
      if (step.hostile === 'page-200') res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Welcome</h1>');
      else if (step.hostile === 'empty-202') res.writeHead(202, { 'content-type': 'application/json' }).end('{}');
      else if (step.hostile === 'redirect') res.writeHead(307, { location: step.location! }).end();
      else {
        // 17 MiB and more: past what the client reads of one answer.
        res.writeHead(503, { 'content-type': 'text/plain' });
        const mib = Buffer.alloc(1 << 20, 'x');
        for (let i = 0; i < 17 && !res.destroyed; i++) if (!res.write(mib)) await once(res, 'drain');
        res.end();
      }
      return;
    }
    if (step && step !== 'drop-answer') {
      const code = step.status === 409 ? 'IDEMPOTENCY_KEY_IN_USE' : step.status === 429 ? 'RATE_LIMITED' : 'QUERY_TIMEOUT';
      res.writeHead(step.status, { 'content-type': 'application/json', ...(step.retryAfter ? { 'retry-after': step.retryAfter } : {}) });
      res.end(JSON.stringify({ statusCode: step.status, code, message: 'from the test proxy', requestId: 'proxy' }));
      return;
    }
    const headers = Object.fromEntries(
      ['authorization', 'content-type', 'idempotency-key'].filter((name) => req.headers[name]).map((name) => [name, String(req.headers[name])]),
    );
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await fetch(target + req.url, { method: req.method, headers, body });
    const text = Buffer.from(await answer.arrayBuffer());
    if (step === 'drop-answer') return void req.socket.destroy(); // the gateway committed; the client never hears it
    const passed = ['content-type', 'retry-after', 'idempotent-replayed'].filter((name) => answer.headers.has(name));
    res.writeHead(answer.status, Object.fromEntries(passed.map((name) => [name, answer.headers.get(name)!])));
    res.end(text);
  };
  const server = http.createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, keys, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The package in `app/node_modules` as `npm install` links it: its package.json, dist/ built by its own tsconfig, its dependency. */
async function installPackage(app: string): Promise<void> {
  const pkg = join(app, 'node_modules/@weex-ai-log/client');
  mkdirSync(pkg, { recursive: true });
  copyFileSync(join(CLIENT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules/openapi-fetch'), join(app, 'node_modules/openapi-fetch'));
  await run(process.execPath, [TSC, '-p', join(CLIENT, 'tsconfig.json'), '--outDir', join(pkg, 'dist')]);
}

describe('TypeScript client (clients/typescript)', () => {
  const suite = gatewaySuite({});
  const gateway = () => new Gateway({ url: suite.harness.apiUrl, key: suite.harness.agentKey });
  const decision = (explanation: string) => ({ stage: 'decision', model: 'ts-client', input: { prompt: 'p' }, output: { action: 'BUY' }, explanation });
  const stored = async (explanation: string) =>
    (await suite.db.query('SELECT count(*)::int AS n FROM ai_logs WHERE explanation = $1', [explanation])).rows[0].n as number;
  let work: string;
  let installed: Promise<unknown>;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'clients-typescript-'));
    // Built while the other tests run (tsc takes seconds of CPU, they mostly wait out Retry-After); awaited by the last.
    installed = installPackage(join(work, 'app')).catch((error: unknown) => error);
  });
  afterAll(async () => {
    await installed;
    rmSync(work, { recursive: true, force: true });
  });

  it("is generated from the gateway's /docs-json: the committed src/schema.ts is what the generator writes now", async () => {
    const out = join(work, 'schema.ts');
    await run(process.execPath, [join(CLIENT, 'generate.mjs'), `${suite.harness.apiUrl}/docs-json`, '--out', out], { cwd: ROOT });
    const generated = readFileSync(out, 'utf8').split('\n');
    const committed = readFileSync(join(CLIENT, 'src/schema.ts'), 'utf8').split('\n');
    const line = Array.from({ length: Math.max(generated.length, committed.length) }, (_, i) => i).find((i) => generated[i] !== committed[i]);
    if (line !== undefined) {
      throw new Error(
        `clients/typescript/src/schema.ts is stale (line ${line + 1}: ${JSON.stringify(committed[line])}, now ${JSON.stringify(generated[line])}): ` +
          'regenerate it with `npm start` running and `node clients/typescript/generate.mjs http://127.0.0.1:3000/docs-json`',
      );
    }
  });

  it('posts a log, reads it back and waits until it is uploaded', async () => {
    const client = gateway();
    const id = await client.log({ ...decision('uploaded by the ts client'), orderId: BIG });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const log = await client.waitUploaded(id, { timeoutMs: 30_000 });
    expect(log).toMatchObject({ id, status: 'uploaded', orderId: String(BIG), explanation: 'uploaded by the ts client' });
    expect(log.attempts.map((attempt) => attempt.outcome)).toContain('uploaded');
    const ids = await client.logBatch([decision('batch 0'), { ...decision('batch 1'), orderId: '9223372036854775807' }]);
    expect(ids).toHaveLength(2);
    expect((await client.get(ids[1])).orderId).toBe('9223372036854775807');
  });

  it('keeps order IDs above 2^53 exact as bigint and string, and refuses a number that may have lost digits', async () => {
    const client = gateway();
    for (const orderId of [BIG + 1n, String(BIG + 2n), 2 ** 53 - 1]) {
      const log = await client.get(await client.log({ ...decision(`order ${orderId}`), orderId }));
      expect(log.orderId).toBe(String(orderId));
    }
    const { rows } = await suite.db.query(`SELECT order_id::text AS id FROM ai_logs WHERE explanation = $1`, [`order ${BIG + 1n}`]);
    expect(rows).toEqual([{ id: '737185556881998185' }]);
    await expect(client.log({ ...decision('unsafe'), orderId: Number(BIG) })).rejects.toThrow(/not a safe integer.*bigint or a string/);
    const evidence = await client.evidence(BIG);
    expect(evidence.orderId).toBe(String(BIG));
    expect(evidence.logs.map((log) => log.orderId)).toContain(String(BIG));
  });

  it('throws a GatewayError naming the field and the rule of a 400, without the key; fit cuts an explanation at a character', async () => {
    const client = gateway();
    const long = 'a'.repeat(999) + '😀';
    const error: GatewayError = await client.log({ ...decision(long), orderId: '12a' }).catch((e) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'orderId', attempts: 1, transient: false });
    expect(error.rule).toMatch(/decimal digits/);
    expect(error.errors.map((e) => e.path)).toEqual(['orderId', 'explanation']);
    expect(error.message).toMatch(/^POST \/v1\/ai-logs: 400 VALIDATION_FAILED: .*orderId: .*explanation: /);
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain(suite.harness.agentKey);
    const batch: BatchRejectedError = await client.logBatch([decision('kept'), { ...decision('refused'), stage: '' }]).catch((e) => e);
    expect(batch).toBeInstanceOf(BatchRejectedError);
    expect(batch).toMatchObject({ ids: [expect.any(String), null], field: 'logs.1.stage', rule: 'stage should not be empty' });
    expect(await stored('kept')).toBe(1);
    const id = await client.log(decision(long), { fit: true });
    expect((await client.get(id)).explanation).toBe('a'.repeat(999));
    expect(fitExplanation('b'.repeat(998) + '😀😀')).toBe('b'.repeat(998) + '😀');
    await expect(new Gateway({ url: suite.harness.apiUrl, key: 'agk_unknown-key' }).get(id)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('sends a 413 once: no retry of what cannot succeed', async () => {
    const posts = async () => {
      const text = await (await fetch(`${suite.harness.apiUrl}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith('http_request_duration_seconds_count{') && /route="\/v1\/ai-logs".*status_code="413"/.test(l));
      return line ? Number(line.split(' ')[1]) : 0;
    };
    const before = await posts();
    const error = await gateway()
      .log({ ...decision('too large'), input: { candles: 'x'.repeat(1_200_000) } })
      .catch((e) => e);
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', attempts: 1 });
    expect(await posts()).toBe(before + 1);
  });

  it('retries 429, 503 and a key in flight after Retry-After (seconds or an HTTP date), with one Idempotency-Key, and stores one log', async () => {
    const date = new Date(Date.now() + 3_000).toUTCString(); // whole seconds: 2 to 3 s from now, 1 to 2 s after the 429's wait
    const p = await proxy(suite.harness.apiUrl, [
      { status: 429, retryAfter: '1' },
      { status: 503, retryAfter: date },
      { status: 409, retryAfter: '0' },
    ]);
    try {
      const started = Date.now();
      const id = await new Gateway({ url: p.url, key: suite.harness.agentKey }).log(decision('retried through 429 503 409'));
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      expect(p.keys).toHaveLength(4);
      expect(new Set(p.keys).size).toBe(1);
      expect(p.keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await stored('retried through 429 503 409')).toBe(1);
      expect((await gateway().get(id)).explanation).toBe('retried through 429 503 409');
    } finally {
      await p.close();
    }
  });

  it('gives up at the deadline with the last answer, transient; never retries a 429 without Retry-After; keeps a foreign page out', async () => {
    const p = await proxy(suite.harness.apiUrl, [{ status: 503, retryAfter: '5' }, { status: 429 }, 'echo-headers']);
    try {
      const client = new Gateway({ url: p.url, key: suite.harness.agentKey, deadlineMs: 2_000 });
      expect(await client.get('x').catch((e) => e)).toMatchObject({ status: 503, code: 'QUERY_TIMEOUT', retryAfterMs: 5_000, attempts: 1, transient: true });
      expect(await client.log(decision('over the whole limit')).catch((e) => e)).toMatchObject({ status: 429, attempts: 1, transient: false });
      // Not the gateway's answer: its text stays out of the message, since it may hold the key.
      const foreign = await client.get('x').catch((e) => e);
      expect(foreign).toMatchObject({ status: 400, code: 'HTTP_400', message: 'GET /v1/ai-logs/x: 400 HTTP_400: Bad Request', body: undefined });
      expect(p.keys).toHaveLength(3);
    } finally {
      await p.close();
    }
    expect(parseRetryAfter('7')).toBe(7_000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it("turns a hostile proxy's answers into GatewayErrors: no redirect followed, no answer read past 16 MiB, no odd ids", async () => {
    const elsewhere = await proxy(suite.harness.apiUrl, []);
    const p = await proxy(suite.harness.apiUrl, [
      { hostile: 'page-200' },
      { hostile: 'empty-202' },
      { hostile: 'redirect', location: `${elsewhere.url}/v1/ai-logs` },
      // Every attempt of the call before its deadline: a body cut short is a failure to retry.
      ...Array.from({ length: 30 }, () => ({ hostile: 'huge-503' }) as const),
    ]);
    try {
      // A key read from DATA_DIR's file ends with a newline: taken as the key.
      const client = new Gateway({ url: p.url, key: `${suite.harness.agentKey}\n`, deadlineMs: 1_500 });
      expect(await client.get('x').catch((e) => e)).toMatchObject({ code: 'BAD_ANSWER', status: undefined });
      expect(await client.log(decision('hostile 202')).catch((e) => e)).toMatchObject({ code: 'BAD_ANSWER' });
      expect(await client.log(decision('hostile redirect')).catch((e) => e)).toMatchObject({ status: 307, code: 'HTTP_307' });
      expect(elsewhere.keys).toEqual([]); // the decision and its key never reached the other host
      // What each attempt read of the 17 MiB: the client stops a few chunks past 16 MiB. Its last attempt may instead be
      // cut by the deadline (reading 16 MiB in the test's own busy process can outlast the time left), so the cap is
      // checked on the bytes read, and the error on its kind.
      const reads: number[] = [];
      const counting: typeof fetch = async (input, init) => {
        const answer = await fetch(input, init);
        const at = reads.push(0) - 1;
        const count = new TransformStream<Uint8Array, Uint8Array>({ transform: (chunk, out) => void ((reads[at] += chunk.length), out.enqueue(chunk)) });
        return new Response(answer.body?.pipeThrough(count) ?? null, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
      };
      const patient = new Gateway({ url: p.url, key: suite.harness.agentKey, deadlineMs: 5_000, fetch: counting });
      const huge = await patient.get('x').catch((e) => e);
      expect(huge).toMatchObject({ code: 'UNREACHABLE', transient: true });
      expect(String(huge.cause?.message)).toMatch(/longer than 16777216 bytes|aborted due to timeout/);
      const MIB = 1 << 20;
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((n) => n < 17 * MIB)).toBe(true); // never the whole answer
      expect(reads.filter((n) => n > 16 * MIB)).not.toHaveLength(0);
      for (const id of ['..', '.', '']) await expect(client.get(id)).rejects.toThrow(TypeError);
      expect(parseRetryAfter('-5')).toBeUndefined(); // Date.parse reads it as a year
      expect(await new Gateway({ url: suite.harness.apiUrl, key: `${suite.harness.agentKey}\n` }).log(decision('key with a newline'))).toMatch(
        /^[0-9a-f-]{36}$/,
      );
    } finally {
      await p.close();
      await elsewhere.close();
    }
  });

  it('retries across a gateway that is down and comes back, and across an answer lost after the commit: one log each', async () => {
    const port = await closedPort();
    const pending = new Gateway({ url: `http://127.0.0.1:${port}`, key: suite.harness.agentKey }).log(decision('gateway came back'));
    await sleep(1_500); // refused meanwhile, retried with backoff
    const back = await proxy(suite.harness.apiUrl, [], port);
    try {
      await pending;
      expect(back.keys).toHaveLength(1);
      expect(await stored('gateway came back')).toBe(1);
    } finally {
      await back.close();
    }

    const lossy = await proxy(suite.harness.apiUrl, ['drop-answer']);
    try {
      const id = await new Gateway({ url: lossy.url, key: suite.harness.agentKey }).log(decision('answer lost'));
      expect(lossy.keys).toHaveLength(2);
      expect(lossy.keys[1]).toBe(lossy.keys[0]);
      expect(await stored('answer lost')).toBe(1);
      expect((await gateway().get(id)).explanation).toBe('answer lost');
    } finally {
      await lossy.close();
    }

    const error = await new Gateway({ url: `http://127.0.0.1:${await closedPort()}`, key: suite.harness.agentKey, deadlineMs: 1_000 })
      .log(decision('never'))
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'UNREACHABLE', status: undefined, transient: true });
    expect(error.attempts).toBeGreaterThan(1);
    expect(error.message).toMatch(/^POST \/v1\/ai-logs: no answer from the gateway \(.*ECONNREFUSED.*\)/);
  });

  it('reads a tlog-proof once a checkpoint covers the log, a 409 with Retry-After before', async () => {
    const client = gateway();
    const id = await client.log(decision('proved'));
    await expect(client.proof(id)).rejects.toMatchObject({ status: 409, retryAfterMs: expect.any(Number) });
    const proof = await client.proof(id, { signCheckpoint: true });
    expect(proof).toMatch(/^c2sp\.org\/tlog-proof@v1\nextra /);
    expect(Buffer.from(/^extra (.*)$/m.exec(proof)![1], 'base64').toString()).toContain('"explanation":"proved"');
  });

  it('runs the README example as a user would: the package built as npm install builds it, imported from plain Node ESM', async () => {
    const failed = await installed;
    if (failed) throw failed;
    const app = join(work, 'app');
    const example = /```ts\n([\s\S]*?)```/.exec(README)![1];
    const code = example.replace("'http://127.0.0.1:3000'", `'${suite.harness.apiUrl}'`).replace("'agk_...'", `'${suite.harness.agentKey}'`);
    expect(code).not.toBe(example);
    writeFileSync(join(app, 'package.json'), '{ "type": "module" }');
    writeFileSync(join(app, 'readme.ts'), code);
    const options = { strict: true, target: 'es2022', module: 'nodenext', lib: ['es2022', 'dom'], types: [] };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['readme.ts'] }));
    await run(process.execPath, [TSC, '-p', app]); // the example type-checks against the package's dist/*.d.ts
    const { stdout } = await run(process.execPath, [join(app, 'readme.js')], { cwd: app });
    expect(stdout.trim()).toBe('uploaded');
  });
});
