import { createHash, randomBytes } from 'node:crypto';
import { type RunningSimulator, startSimulator } from '../apps/exchange-sim/src/index.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const ADMIN = 'admin-token-for-console-session-tests';
const TEAM_A = 'agent-key-of-team-a-for-console-tests';
const TEAM_B = { apiKey: 'team-b-api-key', secret: 'team-b-secret-value-0123456789', passphrase: 'team-b-passphrase-value' };
const log = (explanation: string, extra = '') =>
  `{"stage":"decision","model":"m-console","input":{"a":1},"output":{"b":2},"explanation":${JSON.stringify(explanation)}${extra}}`;

/** The console's sign-in and what its cookie may do: the same endpoints as a bearer key, no more. */
describe('console sessions, judge keys and the log list', () => {
  // TRUST_PROXY: a request that says it came over TLS (X-Forwarded-Proto) is taken as one, as behind a TLS-ending proxy.
  const suite = gatewaySuite(
    { AGENT_API_KEY: TEAM_A, ADMIN_TOKEN: ADMIN, SECRETS_KEY: randomBytes(32).toString('hex'), TRUST_PROXY: '127.0.0.1' },
    { worker: false },
  );
  let teamBExchange: RunningSimulator;
  let teamBKey: string;
  beforeAll(async () => {
    teamBExchange = await startSimulator({ port: 0, accounts: [{ uid: '8000000078', ...TEAM_B, aiLogAllowlisted: true }] });
  });
  afterAll(() => teamBExchange?.close());

  /** A fetch answer whose JSON the assertions read as they find it. */
  type Answer = Omit<Response, 'json'> & { json(): Promise<any> };
  const url = (path: string) => `${suite.harness.apiUrl}${path}`;
  const bearer = (token: string, path: string, init: RequestInit = {}): Promise<Answer> =>
    fetch(url(path), { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } }) as Promise<Answer>;
  const withCookie = (cookie: string, path: string, init: RequestInit = {}): Promise<Answer> =>
    fetch(url(path), { ...init, headers: { cookie, 'content-type': 'application/json', ...init.headers } }) as Promise<Answer>;
  async function signIn(credential: string): Promise<{ cookie: string; res: Response; body: any }> {
    const res = await fetch(url('/console/session'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ credential }) });
    const setCookie = res.headers.get('set-cookie') ?? '';
    return { cookie: setCookie.split(';')[0], res, body: await res.json() };
  }

  it('sets up team B with an account and a key of its own', async () => {
    const account = await bearer(ADMIN, '/admin/accounts', {
      method: 'POST',
      body: JSON.stringify({ id: 'team-b', name: 'Team B', ...TEAM_B, baseUrl: teamBExchange.url, spotBaseUrl: teamBExchange.spotUrl }),
    });
    expect(account.status).toBe(201);
    const key = await bearer(ADMIN, '/admin/agents', { method: 'POST', body: JSON.stringify({ accountId: 'team-b', label: 'team b bot' }) });
    teamBKey = (await key.json()).key;
    for (const [token, text] of [
      [TEAM_A, 'team A <script>alert(1)</script> buys'],
      [TEAM_A, 'team A sells'],
      [teamBKey, 'team B secret plan'],
    ])
      expect((await bearer(token, '/v1/ai-logs', { method: 'POST', body: log(text, ',"orderId":123456789012345678') })).status).toBe(202);
  });

  it('signs a team in with an HttpOnly, SameSite=Strict cookie, and its cookie reads its own account only', async () => {
    const { res, body, cookie } = await signIn(teamBKey);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ role: 'team', accountId: 'team-b', label: 'team b bot' });
    expect(res.headers.get('set-cookie')).toMatch(/^gw_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    expect(JSON.stringify(body)).not.toContain(teamBKey);
    const list = await (await withCookie(cookie, '/v1/ai-logs')).json();
    expect(list.data.map((l: any) => l.explanation)).toEqual(['team B secret plan']);
    const aLogs = await (await bearer(TEAM_A, '/v1/ai-logs')).json();
    const foreign = await withCookie(cookie, `/v1/ai-logs/${aLogs.data[0].id}`);
    expect(foreign.status).toBe(404);
    expect((await withCookie(cookie, '/admin/accounts')).status).toBe(403);
    expect(await (await withCookie(cookie, '/console/session')).json()).toMatchObject({ role: 'team', accountId: 'team-b' });
    const status = await withCookie(cookie, '/v1/status');
    expect(await status.json()).toMatchObject({ accountId: 'team-b', paused: false, logs: { queued: 1 } });
  });

  it('lists newest first with every filter, and names a bad one', async () => {
    const all = await (await bearer(TEAM_A, '/v1/ai-logs')).json();
    expect(all.data.map((l: any) => l.explanation)).toEqual(['team A sells', 'team A <script>alert(1)</script> buys']);
    expect(all.data[0]).toMatchObject({ accountId: 'default', model: 'm-console', stage: 'decision', orderId: '123456789012345678' });
    const page = await (await bearer(TEAM_A, '/v1/ai-logs?limit=1')).json();
    const next = await (await bearer(TEAM_A, `/v1/ai-logs?limit=1&cursor=${page.nextCursor}`)).json();
    expect([page.data[0].explanation, next.data[0].explanation, next.nextCursor]).toEqual(['team A sells', 'team A <script>alert(1)</script> buys', null]);
    const matching = async (query: string) => (await (await bearer(TEAM_A, `/v1/ai-logs?${query}`)).json()).data.length;
    expect(await matching('q=SCRIPT')).toBe(1);
    // `%` and `_` are the characters typed, not wildcards.
    expect([await matching('q=team%25sells'), await matching('q=team_A'), await matching('q=%25')]).toEqual([0, 0, 0]);
    expect(await matching('model=m-console&stage=decision&orderId=123456789012345678&status=queued')).toBe(2);
    expect(await matching('orderId=123456789012345679')).toBe(0);
    expect(await matching('model=other')).toBe(0);
    const bad = await bearer(TEAM_A, '/v1/ai-logs?orderId=12x&accountId=team-b');
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.map((e: any) => e.path).sort()).toEqual(['accountId', 'orderId']);
  });

  it('lets a team cookie read, but not post logs, cancel orders or issue keys, even from the console itself', async () => {
    const { cookie } = await signIn(TEAM_A);
    const console = { origin: `http://${new URL(suite.harness.apiUrl).host}`, 'sec-fetch-site': 'same-origin' };
    expect((await withCookie(cookie, '/v1/ai-logs')).status).toBe(200);
    for (const [path, method, body] of [
      ['/v1/ai-logs', 'POST', log('posted with a cookie')],
      ['/v1/orders/cancel-batch', 'POST', JSON.stringify({ symbol: 'BTCUSDT', ids: ['1'] })],
      ['/v1/judge-keys', 'POST', JSON.stringify({ label: 'panel', expiresInDays: 7 })],
    ]) {
      const res = await withCookie(cookie, path, { method, body, headers: console });
      expect([path, res.status, (await res.json()).message]).toEqual([path, 403, expect.stringContaining('only reads')]);
    }
    expect((await bearer(TEAM_A, '/v1/judge-keys', { method: 'POST', body: JSON.stringify({ label: 'panel', expiresInDays: 7 }) })).status).toBe(201);
  });

  it('keeps the real session when another site plants a cookie of the same name', async () => {
    const { cookie } = await signIn(TEAM_A);
    for (const planted of [`gw_console=${'A'.repeat(43)}; ${cookie}`, `${cookie}; gw_console=%3Cx%3E`, `gw_console=x; ${cookie}`]) {
      expect([planted, (await withCookie(planted, '/v1/ai-logs')).status]).toEqual([planted, 200]);
      expect((await (await withCookie(planted, '/console/session')).json()).role).toBe('team');
    }
  });

  it('names the cookie __Host-gw_console over TLS, which no other site can set, and reads no other name there', async () => {
    const tls = { 'x-forwarded-proto': 'https' };
    const res = await fetch(url('/console/session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...tls },
      body: JSON.stringify({ credential: TEAM_A }),
    });
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^__Host-gw_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
    const mine = setCookie.split(';')[0];
    const planted = (await signIn(teamBKey)).cookie; // gw_console=…, as a site under a parent domain could set
    const both = await withCookie(`${planted}; ${mine}`, '/console/session', { headers: tls });
    expect((await both.json()).accountId).toBe('default');
    expect((await withCookie(planted, '/v1/ai-logs', { headers: tls })).status).toBe(401);
  });

  it("counts a console's reads apart from its key's requests, so that watching never slows the agent", async () => {
    const key = await bearer(ADMIN, '/admin/agents', { method: 'POST', body: JSON.stringify({ accountId: 'default', label: 'limited', rateLimitPerMin: 3 }) });
    const limited = (await key.json()).key;
    const { cookie } = await signIn(limited);
    for (let i = 0; i < 5; i++) await withCookie(cookie, '/v1/ai-logs');
    expect((await bearer(limited, '/v1/ai-logs')).status).toBe(200);
  });

  it('keeps at most 20 sessions per key, and nothing an admin token could be guessed from', async () => {
    const first = await signIn(TEAM_A);
    for (let i = 0; i < 20; i++) expect((await signIn(TEAM_A)).res.status).toBe(200);
    expect((await withCookie(first.cookie, '/v1/ai-logs')).status).toBe(401);
    await signIn(ADMIN);
    const { rows } = await suite.db.query("SELECT admin_token_hash FROM console_sessions WHERE role = 'admin'");
    const unsalted = createHash('sha256').update(ADMIN).digest('hex');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.admin_token_hash).not.toBe(unsalted);
  });

  it('gives a judge the decisions, coverage and proofs of one account, and nothing else', async () => {
    const issued = await bearer(TEAM_A, '/v1/judge-keys', { method: 'POST', body: JSON.stringify({ label: 'round 2 panel', expiresInDays: 7 }) });
    expect(issued.status).toBe(201);
    const judge = await issued.json();
    expect(judge).toMatchObject({ scopes: ['audit:read'], accountId: 'default', revokedAt: null });
    expect(Date.parse(judge.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const { body, cookie } = await signIn(judge.key);
    expect(body).toMatchObject({ role: 'judge', accountId: 'default' });
    for (const path of ['/v1/ai-logs', '/v1/compliance/coverage', '/v1/audit/head', '/v1/audit/verifier-key']) {
      expect([path, (await withCookie(cookie, path)).status]).toEqual([path, 200]);
      expect([path, (await bearer(judge.key, path)).status]).toEqual([path, 200]);
    }
    for (const path of ['/v1/positions', '/v1/orders/open', '/v1/evidence/sync', '/v1/judge-keys', '/v1/status']) {
      expect([path, (await bearer(judge.key, path)).status]).toEqual([path, 403]);
    }
    expect((await bearer(judge.key, '/v1/ai-logs', { method: 'POST', body: log('judge writes') })).status).toBe(403);
    expect((await bearer(judge.key, '/v1/audit/checkpoints', { method: 'POST' })).status).toBe(403);
    expect((await bearer(judge.key, '/admin/accounts')).status).toBe(401);

    // Revoked by the team: the key and its console session end at once.
    expect((await bearer(teamBKey, `/v1/judge-keys/${judge.id}`, { method: 'DELETE' })).status).toBe(404);
    const listed = await (await bearer(TEAM_A, '/v1/judge-keys')).json();
    expect(listed.data.map((k: any) => k.id)).toContain(judge.id);
    expect(JSON.stringify(listed)).not.toContain(judge.key);
    expect((await bearer(TEAM_A, `/v1/judge-keys/${judge.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await withCookie(cookie, '/v1/ai-logs')).status).toBe(401);
    expect((await signIn(judge.key)).res.status).toBe(401);
  });

  it('ends a judge key, and its sessions, when it expires', async () => {
    const judge = await (await bearer(TEAM_A, '/v1/judge-keys', { method: 'POST', body: JSON.stringify({ label: 'expiring', expiresInDays: 1 }) })).json();
    const { cookie } = await signIn(judge.key);
    expect((await withCookie(cookie, '/v1/ai-logs')).status).toBe(200);
    await suite.db.query("UPDATE agent_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [judge.id]);
    expect((await withCookie(cookie, '/v1/ai-logs')).status).toBe(401);
    // The API trusts a looked-up key for up to 5 s (AGENT_KEY_CACHE_MS): the bearer is refused within that.
    const refused = await waitFor(
      'the expired judge key to be refused',
      async () => ((await bearer(judge.key, '/v1/ai-logs')).status === 401 ? true : undefined),
      10_000,
    );
    expect(refused).toBe(true);
  });

  it('names what is wrong with a judge key request', async () => {
    const res = await bearer(TEAM_A, '/v1/judge-keys', { method: 'POST', body: JSON.stringify({ label: '', expiresInDays: 91 }) });
    expect(res.status).toBe(400);
    expect((await res.json()).errors.map((e: any) => e.path).sort()).toEqual(['expiresInDays', 'label']);
  });

  it('lets an admin read any account it names, act as an operator, and nothing when it names none', async () => {
    const { body, cookie } = await signIn(ADMIN);
    expect(body).toMatchObject({ role: 'admin', accountId: null });
    expect((await withCookie(cookie, '/admin/accounts')).status).toBe(200);
    const b = await (await withCookie(cookie, '/v1/ai-logs', { headers: { 'x-account-id': 'team-b' } })).json();
    expect(b.data.map((l: any) => l.explanation)).toEqual(['team B secret plan']);
    for (const header of [{}, { 'x-account-id': 'nobody' }] as Record<string, string>[]) {
      const res = await withCookie(cookie, '/v1/ai-logs', { headers: header });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain('x-account-id');
    }
    const write = await withCookie(cookie, '/v1/ai-logs', {
      method: 'POST',
      body: log('admin writes'),
      headers: { 'x-account-id': 'team-b', 'sec-fetch-site': 'same-origin' },
    });
    expect(write.status).toBe(403);
    const pause = await withCookie(cookie, '/admin/accounts/team-b/pause', { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' } });
    expect(pause.status).toBe(200);
    expect((await withCookie(cookie, '/admin/accounts/team-b/resume', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    // What the console offers (pause, resume, retry, revoke), and nothing else: no accounts, keys or credentials.
    const same = { 'sec-fetch-site': 'same-origin' };
    const made = await withCookie(cookie, '/admin/agents', { method: 'POST', body: JSON.stringify({ accountId: 'team-b', label: 'x' }), headers: same });
    expect([made.status, (await made.json()).message]).toEqual([403, expect.stringContaining('only reads')]);
    const account = JSON.stringify({ id: 'team-z', name: 'Z', ...TEAM_B });
    expect((await withCookie(cookie, '/admin/accounts', { method: 'POST', body: account, headers: same })).status).toBe(403);
    const keyToRevoke = (await (await bearer(ADMIN, '/admin/agents', { method: 'POST', body: JSON.stringify({ accountId: 'team-b', label: 'old' }) })).json())
      .id;
    expect((await withCookie(cookie, `/admin/agents/${keyToRevoke}`, { method: 'DELETE', headers: same })).status).toBe(200);
  });

  it('refuses wrong credentials and foreign cookies with 401, and lets a bearer win over any cookie', async () => {
    for (const credential of ['nope-nope-nope', `${TEAM_A}x`]) {
      const { res, body } = await signIn(credential);
      expect(res.status).toBe(401);
      expect(body.message).toBe('credential must be an agent key, a judge key or the admin token');
    }
    for (const cookie of ['gw_console=' + 'A'.repeat(43), 'gw_console=%3Cscript%3E', 'gw_console=a; gw_console=b']) {
      expect((await withCookie(cookie, '/v1/ai-logs')).status).toBe(401);
      expect((await withCookie(cookie, '/console/session')).status).toBe(401);
      expect((await bearer(TEAM_A, '/v1/ai-logs', { headers: { cookie } })).status).toBe(200);
    }
  });

  it('signs out: the cookie is cleared and stops working', async () => {
    const { cookie } = await signIn(TEAM_A);
    const out = await withCookie(cookie, '/console/session', { method: 'DELETE', headers: { 'sec-fetch-site': 'same-origin' } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await withCookie(cookie, '/v1/ai-logs')).status).toBe(401);
  });
});
