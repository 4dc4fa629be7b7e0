import { createHmac } from 'node:crypto';
import { parseJson, stringifyJson } from '#libs/common';
import { sign } from '#libs/weex-client';
import { type AiLogUploadRecord, defaultSimAccounts, type RunningSimulator, SANDBOX_CREDENTIALS, startSimulator } from '../apps/exchange-sim/src/index.js';

type Credentials = { apiKey: string; secret: string; passphrase: string };
type AuthHeader = 'ACCESS-KEY' | 'ACCESS-SIGN' | 'ACCESS-PASSPHRASE' | 'ACCESS-TIMESTAMP';
interface SendOptions {
  creds?: Credentials;
  timestamp?: string;
  /** Text to sign when it should differ from the text sent. */
  signedBody?: string;
  omit?: AuthHeader[];
  override?: Partial<Record<AuthHeader, string>>;
}
interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

const V3 = '/capi/v3/order/uploadAiLog';
const V2 = '/capi/v2/order/uploadAiLog';
const ALLOWLISTED = { uid: '8000000001', ...SANDBOX_CREDENTIALS };
const NOT_ALLOWLISTED = defaultSimAccounts()[1];
const ORDER_ID = 737185556881998184n;

let now = 1_767_225_600_000;
let sim: RunningSimulator;

function uploadBody(overrides: Record<string, unknown> = {}): string {
  const base = { orderId: ORDER_ID, stage: 'Decision Making', model: 'gpt-test-1', input: { prompt: 'BTC?' } };
  return stringifyJson({ ...base, output: { signal: 'BUY' }, explanation: 'Momentum is up.', ...overrides });
}

/** Builds the body text once, signs that text, sends that text. */
async function post(path: string, body: string, opts: SendOptions = {}): Promise<Answer> {
  const creds = opts.creds ?? ALLOWLISTED;
  const timestamp = opts.timestamp ?? String(now);
  const headers: Record<string, string> = {
    'ACCESS-KEY': creds.apiKey,
    'ACCESS-SIGN': sign(creds.secret, { timestamp, method: 'POST', requestPath: path, body: opts.signedBody ?? body }),
    'ACCESS-PASSPHRASE': creds.passphrase,
    'ACCESS-TIMESTAMP': timestamp,
    ...opts.override,
  };
  for (const name of opts.omit ?? []) delete headers[name];
  return send(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
}

async function send(path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${sim.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: parseJson(text) };
}

function expectSimulatorJson(answer: Answer): void {
  expect(answer.headers.get('x-weex-simulator')).toBe('1');
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
}

function expectError(answer: Answer, path: string, code: { v3: number; v2: string }, status: number): void {
  expectSimulatorJson(answer);
  expect(answer.status).toBe(status);
  const envelope = path.startsWith('/capi/v2/')
    ? { code: code.v2, msg: expect.any(String), requestTime: now, data: null }
    : { code: code.v3, msg: expect.any(String) };
  expect(answer.json).toEqual(envelope);
}

beforeAll(async () => {
  sim = await startSimulator({ clock: () => now });
});

afterAll(async () => {
  await sim?.close();
});

beforeEach(() => {
  sim.state.clearUploads();
});

describe('exchange simulator: server time', () => {
  it('answers v3 and v2 server time from its clock', async () => {
    const v3 = await send('/capi/v3/market/time');
    expectSimulatorJson(v3);
    expect(v3.text).toBe(`{"serverTime":${now}}`);

    const v2 = await send('/capi/v2/market/time');
    expectSimulatorJson(v2);
    expect(v2.json).toEqual({ code: '00000', msg: 'success', requestTime: now, data: now });
  });
});

describe('exchange simulator: uploadAiLog', () => {
  it('accepts a signed v3 upload and records the exact bytes, 64-bit orderId included', async () => {
    const body = uploadBody();
    const answer = await post(V3, body);

    expectSimulatorJson(answer);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ code: 0, msg: 'success', data: 'upload success' });

    const [record, ...rest] = sim.state.uploads();
    expect(rest).toHaveLength(0);
    expect(record).toMatchObject({ uid: ALLOWLISTED.uid, apiKey: ALLOWLISTED.apiKey, path: V3 });
    expect(record.timestamp).toBe(String(now));
    expect(record.rawBody).toBe(body);
    expect(record.rawBody).toContain('"orderId":737185556881998184,');
    const independent = createHmac('sha256', ALLOWLISTED.secret).update(`${record.timestamp}POST${record.path}${record.rawBody}`).digest('base64');
    expect(record.signature).toBe(independent);
  });

  it('accepts the v2 path with the v2 envelope', async () => {
    const answer = await post(V2, uploadBody({ orderId: null }));

    expectSimulatorJson(answer);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ code: '00000', msg: 'success', requestTime: now, data: 'upload success' });
    expect(sim.state.uploads().map((u) => u.path)).toEqual([V2]);
  });

  it('accepts an explanation of exactly 1000 UTF-16 units, emoji counting 2 (as Java counts)', async () => {
    const answer = await post(V3, uploadBody({ explanation: 'a'.repeat(998) + '😀' }));

    expect(answer.status).toBe(200);
    expect(sim.state.uploads()).toHaveLength(1);
  });

  it('covers the query string in the signature and records the path without it', async () => {
    const body = uploadBody();
    const timestamp = String(now);
    const requestPath = V3;
    const headers = {
      'ACCESS-KEY': ALLOWLISTED.apiKey,
      'ACCESS-SIGN': sign(ALLOWLISTED.secret, { timestamp, method: 'POST', requestPath, queryString: 'trace=1', body }),
      'ACCESS-PASSPHRASE': ALLOWLISTED.passphrase,
      'ACCESS-TIMESTAMP': timestamp,
      'content-type': 'application/json',
    };
    expect((await send(`${V3}?trace=1`, { method: 'POST', headers, body })).status).toBe(200);
    expect((await send(`${V3}?trace=2`, { method: 'POST', headers, body })).status).toBe(401);
    expect(sim.state.uploads().map((u) => u.path)).toEqual([V3]);
  });

  it('accepts timestamps exactly 30 s either side of its clock', async () => {
    expect((await post(V3, uploadBody(), { timestamp: String(now - 30_000) })).status).toBe(200);
    expect((await post(V3, uploadBody(), { timestamp: String(now + 30_000) })).status).toBe(200);
  });
});

describe('exchange simulator: authentication', () => {
  // Missing headers have codes of their own (ccxt's exceptions table: -1040 to -1042).
  const NO_KEY = { v3: -1040, v2: '40001' };
  const NO_SIGN = { v3: -1041, v2: '40002' };
  const NO_TIMESTAMP = { v3: -1042, v2: '40003' };
  const KEY = { v3: -1044, v2: '40006' };
  const SIGN = { v3: -1047, v2: '40009' };
  const PASSPHRASE = { v3: -1049, v2: '40012' };
  const TIMESTAMP = { v3: -1043, v2: '40005' };
  const EXPIRED = { v3: -1046, v2: '40008' };
  const cases: [string, () => SendOptions, { v3: number; v2: string }, number][] = [
    ['missing ACCESS-KEY', () => ({ omit: ['ACCESS-KEY'] }), NO_KEY, 401],
    ['unknown ACCESS-KEY', () => ({ override: { 'ACCESS-KEY': 'no-such-key' } }), KEY, 401],
    ['missing ACCESS-SIGN', () => ({ omit: ['ACCESS-SIGN'] }), NO_SIGN, 401],
    ['signature made with another secret', () => ({ creds: { ...ALLOWLISTED, secret: 'not-the-secret' } }), SIGN, 401],
    ['signature of another body', () => ({ signedBody: uploadBody({ stage: 'Other' }) }), SIGN, 401],
    ['missing ACCESS-PASSPHRASE', () => ({ omit: ['ACCESS-PASSPHRASE'] }), PASSPHRASE, 401],
    ['wrong ACCESS-PASSPHRASE', () => ({ override: { 'ACCESS-PASSPHRASE': 'wrong' } }), PASSPHRASE, 401],
    ['missing ACCESS-TIMESTAMP', () => ({ omit: ['ACCESS-TIMESTAMP'] }), NO_TIMESTAMP, 400],
    ['ACCESS-TIMESTAMP in seconds (10 digits)', () => ({ timestamp: String(Math.floor(now / 1000)) }), TIMESTAMP, 400],
    ['ACCESS-TIMESTAMP not digits', () => ({ timestamp: 'abcdefghijklm' }), TIMESTAMP, 400],
    ['ACCESS-TIMESTAMP 30.001 s old', () => ({ timestamp: String(now - 30_001) }), EXPIRED, 400],
    ['ACCESS-TIMESTAMP 31 s ahead', () => ({ timestamp: String(now + 31_000) }), EXPIRED, 400],
    ['UID not on the AI-log allowlist', () => ({ creds: NOT_ALLOWLISTED }), { v3: -1051, v2: '40014' }, 403],
  ];

  describe.each([V3, V2])('on %s', (path) => {
    it.each(cases)('%s is refused and nothing is recorded', async (_name, options, code, status) => {
      const opts = options();
      const answer = await post(path, uploadBody(), opts);

      expectError(answer, path, code, status);
      expect(sim.state.uploads()).toEqual([]);
      expect(answer.text).not.toContain((opts.creds ?? ALLOWLISTED).secret);
      const signed = { timestamp: String(now), method: 'POST', requestPath: path, body: uploadBody() };
      expect(answer.text).not.toContain(sign(ALLOWLISTED.secret, signed));
    });
  });

  it('answers an unknown path or method with 404 in the envelope of its version', async () => {
    const NOT_FOUND = { v3: -1000, v2: '40404' };
    const v3 = await send('/capi/v3/no/such/path');
    expectError(v3, '/capi/v3/', NOT_FOUND, 404);
    expect(v3.json).toEqual({ code: -1000, msg: 'Not Found' });
    expectError(await send('/capi/v2/no/such/path', { method: 'POST', body: '{}' }), '/capi/v2/', NOT_FOUND, 404);
    expectError(await send(V3), V3, NOT_FOUND, 404);
  });

  it('judges timestamps by the simulator clock, not the wall clock', async () => {
    const saved = now;
    try {
      const timestamp = String(now);
      now += 60_000;
      expectError(await post(V3, uploadBody(), { timestamp }), V3, EXPIRED, 400);
    } finally {
      now = saved;
    }
  });
});

describe('exchange simulator: upload body validation', () => {
  const INVALID = { v3: -1140, v2: '40020' };
  const bodies: [string, () => string][] = [
    ['orderId as a quoted string', () => uploadBody({ orderId: '123' })],
    ['orderId with a fraction', () => uploadBody({ orderId: 1.5 })],
    ['explanation of 1001 characters', () => uploadBody({ explanation: 'a'.repeat(1001) })],
    ['explanation of 999 characters and an emoji (1001 UTF-16 units, 1000 code points)', () => uploadBody({ explanation: 'a'.repeat(999) + '😀' })],
    ['explanation of 501 emoji (1002 UTF-16 units)', () => uploadBody({ explanation: '😀'.repeat(501) })],
    ['input an array', () => uploadBody({ input: ['prompt'] })],
    ['output null', () => uploadBody({ output: null })],
    ['missing stage', () => uploadBody({ stage: undefined })],
    ['empty model', () => uploadBody({ model: '' })],
    ['missing explanation', () => uploadBody({ explanation: undefined })],
    ['malformed JSON', () => '{"stage":"Decision Making",'],
    ['a JSON array', () => '[]'],
    ['an empty body', () => ''],
  ];

  describe.each([V3, V2])('on %s', (path) => {
    it.each(bodies)('%s is refused and nothing is recorded', async (_name, body) => {
      const answer = await post(path, body());

      expectError(answer, path, INVALID, 400);
      expect(sim.state.uploads()).toEqual([]);
    });
  });

  it('ignores unknown extra fields', async () => {
    expect((await post(V3, uploadBody({ extra: { nested: [1, 2] } }))).status).toBe(200);
  });
});

describe('exchange simulator: inspection endpoints', () => {
  it('serves what was recorded, per uid and in total, and clears it', async () => {
    const first = uploadBody();
    const second = uploadBody({ orderId: 1, stage: 'Risk Check' });
    expect((await post(V3, first)).status).toBe(200);
    expect((await post(V2, second)).status).toBe(200);
    const before = sim.state.stats().rejectionsByCode['-1051'] ?? 0;
    expect((await post(V3, first, { creds: NOT_ALLOWLISTED })).status).toBe(403);

    const all = await send('/__sim/uploads');
    expectSimulatorJson(all);
    const { uploads } = all.json as { uploads: AiLogUploadRecord[] };
    expect(uploads.map((u) => [u.path, u.rawBody, u.uid, u.receivedAt])).toEqual([
      [V3, first, ALLOWLISTED.uid, now],
      [V2, second, ALLOWLISTED.uid, now],
    ]);
    expect(uploads[1].seq).toBe(uploads[0].seq + 1);
    expect(all.text).toContain(JSON.stringify(first).slice(1, -1));
    expect(uploads).toEqual(sim.state.uploads());

    expect((await send(`/__sim/uploads?uid=${ALLOWLISTED.uid}`)).json).toEqual({ uploads });
    expect((await send(`/__sim/uploads?uid=${NOT_ALLOWLISTED.uid}`)).json).toEqual({ uploads: [] });

    const stats = (await send('/__sim/stats')).json as Record<string, Record<string, number>>;
    expect(stats).toMatchObject({ uploads: 2, uploadsByUid: { [ALLOWLISTED.uid]: 2, [NOT_ALLOWLISTED.uid]: 0 } });
    expect(stats.rejectionsByCode['-1051']).toBe(before + 1);
    expect(stats).toEqual(sim.state.stats());
    expect(JSON.stringify(stats)).not.toContain(ALLOWLISTED.secret);

    const cleared = await send('/__sim/uploads', { method: 'DELETE' });
    expect(cleared.json).toEqual({ cleared: 2 });
    expect((await send('/__sim/uploads')).json).toEqual({ uploads: [] });
  });
});
