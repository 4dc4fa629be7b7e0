import { type ApiProcess, apiProcessSuite } from '../support/api-process.js';
import { fetchFrom } from '../support/fetch-from.js';
import { createTempDatabase } from '../support/temp-database.js';
import { waitFor } from '../support/wait-for.js';

const ADMIN = 'admin-token-for-throttle-tests';
const THROTTLE = { ADMIN_AUTH_MAX_FAILURES: '3', ADMIN_AUTH_WINDOW_MS: '4000' };

/**
 * Admin-token attempts against one API from one client address (each test its own, so that their counts do not
 * mix): a bearer on /admin/*, the sign-in form, or a bearer on the dashboard. `headers` are sent with each.
 */
function attempts(url: string, from: string, headers: Record<string, string> = {}) {
  const fetch = fetchFrom(from);
  return {
    bearer: (token: string) => fetch(`${url}/admin/queue`, { headers: { ...headers, authorization: `Bearer ${token}` } }),
    signIn: (token: string) =>
      fetch(`${url}/admin/sign-in`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ token }) }),
    dashboard: (token: string) => fetch(`${url}/admin/queues/api/queues`, { headers: { ...headers, authorization: `Bearer ${token}` } }),
  };
}

/** Statuses of `n` wrong tokens sent one after the other from `from`, cycling through the three ways in. */
async function wrongTokens(url: string, from: string, n: number, headers: Record<string, string> = {}): Promise<number[]> {
  const ways = Object.values(attempts(url, from, headers));
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await ways[i % ways.length](`wrong-admin-token-${i}`)).status);
  return statuses;
}

/** Statuses of the right token by each way in. */
async function rightToken(url: string, from: string, headers: Record<string, string> = {}): Promise<Record<string, number>> {
  const ways = Object.entries(attempts(url, from, headers));
  return Object.fromEntries(await Promise.all(ways.map(async ([way, attempt]) => [way, (await attempt(ADMIN)).status])));
}
const ADMITTED = { bearer: 200, signIn: 200, dashboard: 200 };

describe('wrong admin tokens are throttled per client address; the right one is never refused', () => {
  const suite = apiProcessSuite();
  const apis: ApiProcess[] = [];
  beforeAll(async () => {
    // Two replicas sharing Redis, started one after the other (each migrates the database at start).
    apis.push(await suite.start({ ADMIN_TOKEN: ADMIN, ...THROTTLE }));
    apis.push(await suite.start({ ADMIN_TOKEN: ADMIN, ...THROTTLE }));
  }, 120_000);

  it('answers 429 with Retry-After to wrong tokens on every replica once an address failed too often, and lets the right token from it in all the while', async () => {
    const [a, b] = apis;
    const from = '127.0.0.2';
    const session = (await attempts(a.url, from).signIn(ADMIN)).headers.get('set-cookie')!.split(';')[0];
    expect(await wrongTokens(a.url, from, 3)).toEqual([401, 401, 401]);
    for (const attempt of Object.values(attempts(b.url, from))) {
      const res = await attempt('yet-another-wrong-token');
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(4);
      expect(await res.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    }
    // The right token, from the throttled address, on both replicas, between more wrong ones.
    expect(await rightToken(b.url, from)).toEqual(ADMITTED);
    expect(await wrongTokens(a.url, from, 3)).toEqual([429, 429, 429]);
    expect(await rightToken(a.url, from)).toEqual(ADMITTED);
    // A browser signed in before keeps its session.
    expect((await fetchFrom(from)(`${b.url}/admin/queues/api/queues`, { headers: { cookie: session } })).status).toBe(200);
    await waitFor('the window to end', async () => ((await attempts(b.url, from).bearer('wrong-after-the-window')).status === 401 ? true : undefined), 10_000);
    const warnings = a.logLines().filter((l) => l.level === 40 && l.context === 'AdminAuthThrottle');
    expect(warnings.map((l) => l.msg)).toEqual([
      expect.stringContaining('1 of 3'),
      expect.stringContaining('2 of 3'),
      expect.stringContaining('further wrong tokens refused'),
    ]);
    expect(a.log).not.toContain('wrong-admin-token');
    // And the API documents it on every admin endpoint.
    const doc: any = await (await fetch(`${a.url}/docs-json`)).json();
    const admin = Object.entries<any>(doc.paths)
      .filter(([path]) => path.startsWith('/admin/'))
      .flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => [`${method} ${path}`, op]));
    expect(admin.length).toBeGreaterThan(10);
    expect(admin.filter(([, op]) => op.responses['429']?.content?.['application/json']?.example?.code !== 'RATE_LIMITED').map(([name]) => name)).toEqual([]);
  }, 30_000);

  it('counts only failures: the right token spends none of the budget', async () => {
    const [a, b] = apis;
    const from = '127.0.0.3';
    expect(await wrongTokens(a.url, from, 2)).toEqual([401, 401]);
    for (let i = 0; i < 5; i++) expect((await attempts(b.url, from).bearer(ADMIN)).status).toBe(200);
    expect(await wrongTokens(b.url, from, 2)).toEqual([401, 429]);
  }, 30_000);

  it('behind a proxy without TRUST_PROXY (every client shares its address), many wrong tokens do not keep the admin out', async () => {
    const [a, b] = apis;
    const proxy = '127.0.0.4';
    const attacker = { 'x-forwarded-for': '203.0.113.9' };
    expect(await wrongTokens(a.url, proxy, 30, attacker)).toEqual([401, 401, 401, ...Array(27).fill(429)]);
    const admin = { 'x-forwarded-for': '198.51.100.7' };
    expect(await rightToken(a.url, proxy, admin)).toEqual(ADMITTED);
    expect(await rightToken(b.url, proxy, admin)).toEqual(ADMITTED);
    // Anyone else behind the proxy who mistypes the token waits out the window, like the attacker.
    expect(await wrongTokens(b.url, proxy, 1, admin)).toEqual([429]);
  }, 30_000);

  it('counts in the process in embedded mode (no Redis)', async () => {
    const db = await createTempDatabase();
    try {
      const api = await suite.start({ DATABASE_URL: db.url, REDIS_URL: '', ADMIN_TOKEN: ADMIN, ...THROTTLE });
      expect(await wrongTokens(api.url, '127.0.0.1', 5)).toEqual([401, 401, 401, 429, 429]);
      expect(await rightToken(api.url, '127.0.0.1')).toEqual(ADMITTED);
      await waitFor('the window to end', async () => ((await attempts(api.url, '127.0.0.1').bearer('wrong')).status === 401 ? true : undefined), 10_000);
      await api.stop();
    } finally {
      await db.drop();
    }
  }, 90_000);

  it('behind a proxy named in TRUST_PROXY, counts each client by X-Forwarded-For', async () => {
    const api = await suite.start({ ADMIN_TOKEN: ADMIN, ...THROTTLE, QUEUE_PREFIX: `proxy-${Date.now()}`, TRUST_PROXY: '127.0.0.1' });
    const from = (address: string, token: string) =>
      fetch(`${api.url}/admin/queue`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': address } });
    const attacker = [];
    for (let i = 0; i < 4; i++) attacker.push((await from('203.0.113.9', `wrong-${i}`)).status);
    expect(attacker).toEqual([401, 401, 401, 429]);
    expect((await from('198.51.100.7', 'mistyped')).status).toBe(401);
    expect((await from('203.0.113.9', ADMIN)).status).toBe(200);
    expect((await from('198.51.100.7', ADMIN)).status).toBe(200);
    // An entry that is not an address gets no counter of its own: made-up values are counted as their connection.
    const madeUp = [];
    for (let i = 0; i < 4; i++) madeUp.push((await from(`garbage-${i}!!`, `wrong-${i}`)).status);
    expect(madeUp).toEqual([401, 401, 401, 429]);
    // Signed in through a TLS proxy, the session cookie is Secure; over plain HTTP it cannot be.
    const signIn = (headers: Record<string, string>) =>
      fetch(`${api.url}/admin/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ token: ADMIN }),
      });
    expect((await signIn({ 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' })).headers.get('set-cookie')).toMatch(/; Secure$/);
    expect((await signIn({ 'x-forwarded-for': '198.51.100.7' })).headers.get('set-cookie')).not.toMatch(/Secure/);
    await api.stop();
  }, 90_000);
});
