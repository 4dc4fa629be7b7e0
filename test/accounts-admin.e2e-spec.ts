import { randomBytes } from 'node:crypto';
import { type RunningSimulator, startSimulator } from '../apps/exchange-sim/src/index.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const ADMIN = 'admin-token-for-account-tests';
const DEFAULT_KEY = 'agent-key-of-the-default-account';
const TEAM_B = { apiKey: 'team-b-api-key', secret: 'team-b-secret-value-0123456789', passphrase: 'team-b-passphrase-value' };
const LOG = (orderId: string) => `{"orderId":${orderId},"stage":"decision","model":"m","input":{"a":1},"output":{"b":2},"explanation":"why"}`;
const json = (res: Response): Promise<any> => res.json();

describe('accounts and agent keys (admin)', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: DEFAULT_KEY, ADMIN_TOKEN: ADMIN, SECRETS_KEY: randomBytes(32).toString('hex') });
  // Team B trades on an exchange (simulator) of its own, so that every upload shows which account it went to.
  let teamBExchange: RunningSimulator;
  beforeAll(async () => {
    teamBExchange = await startSimulator({ port: 0, accounts: [{ uid: '8000000077', ...TEAM_B, aiLogAllowlisted: true }] });
  });
  afterAll(() => teamBExchange?.close());

  const call = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${suite.harness!.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  const admin = (path: string, init: RequestInit = {}) => call(path, ADMIN, init);
  const post = (path: string, token: string, body: unknown) =>
    call(path, token, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('refuses admin requests without the admin token, or with an agent key', async () => {
    for (const token of ['', 'wrong-token-wrong-token', DEFAULT_KEY]) {
      const res = await call('/admin/accounts', token);
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringContaining('ADMIN_TOKEN') });
    }
  });

  it('names every bad field of a new account, and stores nothing', async () => {
    const res = await admin('/admin/accounts', { method: 'POST', body: JSON.stringify({ id: 'Bad Id', name: '', apiKey: 1, ipWeightLimit: 0 }) });
    expect(res.status).toBe(400);
    const paths = (await json(res)).errors.map((e: { path: string }) => e.path).sort();
    expect([...new Set(paths)]).toEqual(['apiKey', 'id', 'ipWeightLimit', 'name', 'passphrase', 'secret']);
    expect((await suite.db.query("SELECT count(*)::int AS n FROM accounts WHERE id <> 'default'")).rows[0].n).toBe(0);
  });

  let teamBKey: string;
  let teamBKeyId: string;

  it('adds an account with its credentials encrypted at rest and never returned', async () => {
    const res = await admin('/admin/accounts', {
      method: 'POST',
      body: JSON.stringify({ id: 'team-b', name: 'Team B', ...TEAM_B, baseUrl: teamBExchange.url, spotBaseUrl: teamBExchange.spotUrl }),
    });
    expect(res.status).toBe(201);
    const text = await res.text();
    for (const secret of Object.values(TEAM_B)) expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({ id: 'team-b', name: 'Team B', credentials: 'stored', baseUrl: teamBExchange.url });
    const { rows } = await suite.db.query("SELECT credentials_enc FROM accounts WHERE id = 'team-b'");
    expect(rows[0].credentials_enc).toMatch(/^v1\./);
    for (const secret of Object.values(TEAM_B)) expect(rows[0].credentials_enc).not.toContain(secret);
    const list = await (await admin('/admin/accounts')).text();
    for (const secret of Object.values(TEAM_B)) expect(list).not.toContain(secret);
    expect((await admin('/admin/accounts', { method: 'POST', body: JSON.stringify({ id: 'team-b', name: 'again', ...TEAM_B }) })).status).toBe(409);
  });

  it('creates an agent key shown once, stored only as a hash, with the scopes asked for', async () => {
    const res = await admin('/admin/agents', { method: 'POST', body: JSON.stringify({ accountId: 'team-b', label: 'bot 1', scopes: ['logs:write'] }) });
    expect(res.status).toBe(201);
    const created = await json(res);
    expect(created).toMatchObject({ accountId: 'team-b', label: 'bot 1', scopes: ['logs:write'], key: expect.stringMatching(/^agk_/) });
    teamBKey = created.key;
    teamBKeyId = created.id;
    const listed = await (await admin('/admin/agents?accountId=team-b')).text();
    expect(listed).not.toContain(teamBKey);
    expect(JSON.parse(listed).data.map((k: { id: string }) => k.id)).toEqual([teamBKeyId]);
    const { rows } = await suite.db.query('SELECT key_hash FROM agent_keys WHERE id = $1', [teamBKeyId]);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    const bad = await admin('/admin/agents', { method: 'POST', body: JSON.stringify({ accountId: 'team-b', label: 'x', scopes: ['admin'] }) });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors[0].path).toBe('scopes');
    expect((await admin('/admin/agents', { method: 'POST', body: JSON.stringify({ accountId: 'nobody', label: 'x' }) })).status).toBe(404);
  });

  it("uploads each account's logs with that account's credentials, to that account's exchange", async () => {
    const a = await json(await post('/v1/ai-logs', DEFAULT_KEY, LOG('737185556881998184')));
    const b = await json(await post('/v1/ai-logs', teamBKey, LOG('737185556881998999')));
    for (const [id, key] of [
      [a.id, DEFAULT_KEY],
      [b.id, teamBKey],
    ]) {
      await waitFor(`log ${id} uploaded`, async () => ((await json(await call(`/v1/ai-logs/${id}`, key))).status === 'uploaded' ? true : undefined), 30_000);
    }
    expect(teamBExchange.state.uploads('8000000077').map((u) => u.rawBody)).toEqual([expect.stringContaining('"orderId":737185556881998999')]);
    expect(suite.harness.simulator.state.uploads('8000000001').map((u) => u.rawBody)).toEqual([expect.stringContaining('"orderId":737185556881998184')]);

    // Neither account's agents see the other's logs.
    expect((await call(`/v1/ai-logs/${a.id}`, teamBKey)).status).toBe(404);
    expect((await call(`/v1/ai-logs/${b.id}`, DEFAULT_KEY)).status).toBe(404);
  });

  it('refuses a revoked key at its next request', async () => {
    const res = await admin(`/admin/agents/${teamBKeyId}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: teamBKeyId, revokedAt: expect.any(String) });
    expect((await post('/v1/ai-logs', teamBKey, LOG('1'))).status).toBe(401);
  });

  it("limits each agent key's requests per minute, with Retry-After", async () => {
    const res = await admin('/admin/agents', { method: 'POST', body: JSON.stringify({ accountId: 'default', label: 'slow bot', rateLimitPerMin: 2 }) });
    const { key } = await json(res);
    expect((await post('/v1/ai-logs', key, LOG('11'))).status).toBe(202);
    expect((await post('/v1/ai-logs', key, LOG('12'))).status).toBe(202);
    const limited = await post('/v1/ai-logs', key, LOG('13'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json(limited)).toMatchObject({ code: 'RATE_LIMITED' });
    // Another key of the same account is not slowed by this one.
    expect((await post('/v1/ai-logs', DEFAULT_KEY, LOG('14'))).status).toBe(202);
    expect((await suite.db.query('SELECT count(*)::int AS n FROM ai_logs WHERE order_id = 13')).rows[0].n).toBe(0);
  });
});
