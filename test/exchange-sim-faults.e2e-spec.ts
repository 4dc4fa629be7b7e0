import { performance } from 'node:perf_hooks';
import { defaultSimAccounts, type RunningSimulator, SANDBOX_CREDENTIALS, type SimStats, startSimulator } from '../apps/exchange-sim/src/index.js';
import { aiLogBody, SimSignedClient, UPLOAD_V2, UPLOAD_V3 } from './support/sim-signed-client.js';

const A = { uid: '8000000001', ...SANDBOX_CREDENTIALS };
const B = { uid: '8000000003', apiKey: 'sim-key-b', secret: 'sim-secret-b', passphrase: 'sim-pass-b' };
const TIME = '/capi/v3/market/time';
const RATE_LIMITED = { code: -1003, msg: expect.any(String) };
/** undici's error when the connection closes without an answer (a TypeError of another realm, so matched by shape). */
const FETCH_FAILED = { name: 'TypeError', message: 'fetch failed' };

let now = 1_767_225_600_000;
let sim: RunningSimulator;
let client: SimSignedClient;

const upload = (caller = A, opts: { ip?: string; body?: string; signal?: AbortSignal } = {}) => client.post(UPLOAD_V3, opts.body ?? aiLogBody(), caller, opts);
const stats = async () => (await client.control('GET', '/__sim/stats')).json as SimStats;
const setFaults = async (config: unknown) => {
  expect((await client.control('PUT', '/__sim/faults', config)).status).toBe(200);
};
const setBudgets = async (config: unknown) => {
  expect((await client.control('PUT', '/__sim/budgets', config)).status).toBe(200);
};

/** Polls a condition, at most for `timeoutMs`. */
async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  const accounts = [...defaultSimAccounts(), { ...B, aiLogAllowlisted: true }];
  sim = await startSimulator({ clock: () => now, accounts });
  client = new SimSignedClient(sim.url, () => now);
});

afterAll(async () => {
  await sim?.close();
});

beforeEach(async () => {
  await client.control('DELETE', '/__sim/faults');
  await client.control('DELETE', '/__sim/budgets');
  sim.state.clearUploads();
});

describe('exchange simulator: weight budgets', () => {
  it('refuses the 11th weight-1 upload of a window with 429, no Retry-After, and accepts in the next', async () => {
    await setBudgets({ ipLimit: 10 });
    for (let i = 1; i <= 10; i++) {
      const ok = await upload();
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-weex-used-weight-ip')).toBe(String(i));
      expect(ok.headers.get('x-weex-used-weight-uid')).toBe(String(i));
    }
    const refused = await upload();
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual(RATE_LIMITED);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.headers.get('x-weex-simulator')).toBe('1');
    expect(refused.headers.get('x-weex-used-weight-ip')).toBe('10');
    const v2 = await client.post(UPLOAD_V2, aiLogBody(), A);
    expect(v2.json).toEqual({ code: '429', msg: expect.any(String), requestTime: now, data: null });
    expect((await client.send(TIME)).status).toBe(429);
    expect(sim.state.uploads()).toHaveLength(10);
    expect((await stats()).weight.byIp['127.0.0.1'].refused429).toBeGreaterThanOrEqual(3);

    now += 10_000;
    const next = await upload();
    expect(next.status).toBe(200);
    expect(next.headers.get('x-weex-used-weight-ip')).toBe('1');
  });

  it('keeps per-UID budgets apart from per-IP budgets, with per-account overrides', async () => {
    await setBudgets({ ipLimit: 100, uidLimit: 3, accounts: { [B.uid]: { uidLimit: 4 } } });
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) expect((await upload(A, { ip })).status).toBe(200);
    const refused = await upload(A, { ip: '10.0.0.4' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-weex-used-weight-uid')).toBe('3');
    expect(refused.headers.get('x-weex-used-weight-ip')).toBe('0');
    for (let i = 0; i < 4; i++) expect((await upload(B, { ip: '10.0.0.4' })).status).toBe(200);
    expect((await upload(B, { ip: '10.0.0.5' })).status).toBe(429);
    const { weight } = await stats();
    expect(weight.byUid[A.uid]).toMatchObject({ refused429: 1 });
    expect(weight.byIp['10.0.0.4']).toEqual({ used: 4, refused429: 0 });

    await setBudgets({ ipLimit: 2 });
    expect((await upload(A, { ip: '10.0.0.9' })).status).toBe(200);
    expect((await upload(B, { ip: '10.0.0.9' })).status).toBe(200);
    expect((await upload(B, { ip: '10.0.0.9' })).status).toBe(429);
    expect((await upload(B, { ip: '10.0.0.8' })).status).toBe(200);
  });

  it('charges a public endpoint IP weight only and shows the budgets as rateLimits', async () => {
    const time = await client.send(TIME, { headers: { 'X-Sim-Client-Ip': '10.1.1.1' } });
    expect(time.headers.get('x-weex-used-weight-ip')).toBe('1');
    expect(time.headers.get('x-weex-used-weight-uid')).toBeNull();
    await setBudgets({ ipLimit: 1000, windowMs: 10_000 });
    const budgets = (await client.control('GET', '/__sim/budgets')).json;
    expect(budgets).toEqual({ ipLimit: 1000, uidLimit: 500, windowMs: 10_000, window: 'fixed', accounts: {} });
    const limit = (n: number) => ({ rateLimitType: 'REQUEST_WEIGHT', interval: 'SECOND', intervalNum: 10, limit: n });
    expect(sim.state.rateLimits).toEqual([limit(1000), limit(500)]);
    const bad = await client.control('PUT', '/__sim/budgets', { ipLimit: -1 });
    expect([bad.status, bad.json]).toEqual([400, { code: -1140, msg: expect.stringContaining('ipLimit') }]);
  });
});

describe('exchange simulator: faults', () => {
  it('answers 429 to everything during a storm, for durationMs of simulator time, never on /__sim', async () => {
    const before = (await stats()).faults.rateLimited429;
    await setFaults({ rateLimitStorm: true });
    expect((await upload()).json).toEqual(RATE_LIMITED);
    expect((await client.send(TIME)).status).toBe(429);
    expect((await client.control('GET', '/__sim/faults')).json).toEqual({ rateLimitStorm: true, seed: 1 });
    await client.control('DELETE', '/__sim/faults');
    expect((await upload()).status).toBe(200);

    await setFaults({ rateLimitStorm: { durationMs: 5_000 } });
    expect((await upload()).status).toBe(429);
    now += 5_000;
    expect((await upload()).status).toBe(200);
    expect((await stats()).faults.rateLimited429).toBe(before + 3);
  });

  it('answers 500 system error with errorRate 1 without processing, and never with errorRate 0', async () => {
    await setFaults({ errorRate: 1 });
    const v3 = await upload();
    expect([v3.status, v3.text]).toEqual([500, '{"code":-1000,"msg":"system error"}']);
    const v2 = await client.post(UPLOAD_V2, aiLogBody(), A);
    expect(v2.json).toEqual({ code: '40015', msg: 'system error', requestTime: now, data: null });
    expect(sim.state.uploads()).toEqual([]);
    await setFaults({ errorRate: 0 });
    expect((await upload()).status).toBe(200);
  });

  it('delays the answer by at least latencyMs', async () => {
    await setFaults({ latencyMs: 200 });
    const started = performance.now();
    expect((await upload()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('leaves a hung request unanswered until the client gives up', async () => {
    await setFaults({ hangRate: 1 });
    await expect(upload(A, { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(sim.state.uploads()).toEqual([]);
    expect((await stats()).faults.hang).toBeGreaterThanOrEqual(1);
  });

  it('destroys a connection still hanging when the simulator closes', async () => {
    const other = await startSimulator({ clock: () => now });
    const otherClient = new SimSignedClient(other.url, () => now);
    await otherClient.control('PUT', '/__sim/faults', { hangRate: 1 });
    const pending = otherClient.send(TIME);
    pending.catch(() => undefined);
    await waitFor(() => other.state.stats().faults.hang === 1);
    await other.close();
    await expect(pending).rejects.toMatchObject(FETCH_FAILED);
  });

  it('answers 521 with an HTML page when the IP is not allowed', async () => {
    await setFaults({ ipNotAllowed: true });
    const answer = await upload();
    expect(answer.status).toBe(521);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('x-weex-simulator')).toBe('1');
    expect(answer.text).toContain('521');
    expect(sim.state.uploads()).toEqual([]);
  });

  it('records an upload whose answer it then drops, and reports resent bodies as duplicates', async () => {
    const body = aiLogBody({ stage: 'Dropped twice' });
    await setFaults({ dropAfterProcessRate: 1 });
    await expect(upload(A, { body })).rejects.toMatchObject(FETCH_FAILED);
    await expect(upload(A, { body })).rejects.toMatchObject(FETCH_FAILED);
    expect(sim.state.uploads().map((u) => u.rawBody)).toEqual([body, body]);
    await client.control('DELETE', '/__sim/faults');
    expect((await upload(A, { body })).status).toBe(200);
    expect((await upload(B, { body })).status).toBe(200);

    const [first] = sim.state.uploads();
    const duplicates = await client.control('GET', '/__sim/uploads/duplicates');
    expect(duplicates.json).toEqual({
      duplicates: 2,
      byUid: { [A.uid]: 2 },
      bodies: [{ uid: A.uid, count: 3, firstSeq: first.seq, seqs: [first.seq, first.seq + 1, first.seq + 2] }],
    });
    expect((await stats()).faults.droppedAfterProcess).toBeGreaterThanOrEqual(2);
  });

  it('applies per-account faults to that uid only, and path-limited faults to those paths only', async () => {
    await setFaults({ accounts: { [B.uid]: { errorRate: 1 } } });
    expect((await upload(A)).status).toBe(200);
    expect((await upload(B)).status).toBe(500);
    await setFaults({ errorRate: 1, paths: [TIME] });
    expect((await client.send(TIME)).status).toBe(500);
    expect((await upload()).status).toBe(200);
  });

  it('makes the same decisions from the same seed, over HTTP and in process', async () => {
    const run = async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await client.send(TIME)).status);
      return statuses;
    };
    await setFaults({ errorRate: 0.5, seed: 42 });
    const first = await run();
    sim.state.faults.set({ errorRate: 0.5, seed: 42 });
    expect(await run()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 500]));
    const bad = await client.control('PUT', '/__sim/faults', { errorRate: 2 });
    expect([bad.status, bad.json]).toEqual([400, { code: -1140, msg: expect.stringContaining('errorRate') }]);
  });
});
