import { type ApiProcess, apiProcessSuite } from '../support/api-process.js';

const ADMIN = 'admin-token-for-bad-input-tests';
const KEY = 'agent-key-for-bad-input-tests';
const SAMPLE: Record<string, string> = { id: 'default', orderId: '737185556881998184' };
const BAD_COOKIES = [
  '%E0%A4%A',
  '%',
  '%ZZ',
  '"quoted"',
  '',
  'a.b',
  `1.${'A'.repeat(42)}`,
  `9${'9'.repeat(20)}.${'A'.repeat(43)}`,
  'x'.repeat(4_000),
  '%00%0d%0a',
];

describe('repeated query parameters and malformed cookies are 400/401, never 500, on every endpoint', () => {
  const suite = apiProcessSuite();
  let api: ApiProcess;
  beforeAll(async () => {
    // Room for the wrong tokens sent with bad cookies: throttling them is admin-throttle's test.
    api = await suite.start({ ADMIN_TOKEN: ADMIN, AGENT_API_KEY: KEY, ADMIN_AUTH_MAX_FAILURES: '1000' });
  }, 90_000);

  const call = (path: string, init: { method?: string; token?: string; cookie?: string } = {}) => {
    const method = init.method ?? 'GET';
    const headers: Record<string, string> = {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.cookie !== undefined ? { cookie: init.cookie } : {}),
    };
    const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
    return fetch(`${api!.url}${path}`, { method, redirect: 'manual', headers: body ? { ...headers, 'content-type': 'application/json' } : headers, body });
  };
  const tokenFor = (path: string) => (path.startsWith('/admin') ? ADMIN : path.startsWith('/v1') ? KEY : undefined);

  it('answers 400 naming the parameter when a documented one is repeated, and never 500 for any repeated one', async () => {
    const doc: any = await (await fetch(`${api.url}/docs-json`)).json();
    const outcomes: string[] = [];
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE[name] ?? name);
      for (const [method, operation] of Object.entries<any>(item)) {
        const queries = (operation.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
        for (const name of [...queries, 'undocumented']) {
          const res = await call(`${path}?${name}=1&${name}=2`, { method: method.toUpperCase(), token: tokenFor(path) });
          const body = await res.text();
          if (res.status >= 500) outcomes.push(`${method} ${path} ${name}: ${res.status} ${body}`);
          if (name !== 'undocumented' && (res.status !== 400 || !body.includes(`"path":"${name}"`)))
            outcomes.push(`${method} ${path} ${name}: ${res.status} ${body}`);
        }
      }
    }
    expect(outcomes).toEqual([]);
  }, 120_000);

  it('answers 400 to repeated parameters on the sign-in page, its script and its form, and never 500 on the dashboard', async () => {
    const statuses = {
      signIn: (await call('/admin/sign-in?next=/admin/queues&next=//evil')).status,
      signInScript: (await call('/admin/sign-in.js?v=1&v=2')).status,
      signInPost: (await call('/admin/sign-in?next=a&next=b', { method: 'POST' })).status,
      dashboard: (await call('/admin/queues?status=a&status=b', { token: ADMIN })).status,
      dashboardApi: (await call('/admin/queues/api/queues?activeQueue=a&activeQueue=b&status=x&status=y', { token: ADMIN })).status,
    };
    expect(statuses).toEqual({ signIn: 400, signInScript: 400, signInPost: 400, dashboard: 200, dashboardApi: 400 });
  });

  it('answers 400 naming the parameter to dashboard URLs whose text is not UTF-8 or holds U+0000, never bull-board’s 500', async () => {
    const paths = [
      '/admin/queues?x=%00',
      '/admin/queues?x=%ff',
      '/admin/queues/?x=%c3%28',
      '/admin/queues/api/queues?page=%F0%9F%A6',
      '/admin/queues/queue/ai-log-upload?status=%00',
      '/admin/queues/api/queues/ai-log-upload/%00/logs',
    ];
    const answers = [];
    for (const path of paths) {
      const res = await call(path, { token: ADMIN });
      answers.push([path, res.status, ((await res.json()) as { code: string }).code]);
    }
    expect(answers).toEqual(paths.map((path) => [path, 400, 'VALIDATION_FAILED']));
    const named: any = await (await call('/admin/queues?status=%ff', { token: ADMIN })).json();
    expect(named.errors).toEqual([{ path: 'status', message: 'status must be UTF-8, percent-encoded' }]);
  });

  it('clears a session cookie the gateway cannot have set and logs it at warn without its value: the bearer decides, and without one it is a 400', async () => {
    const signedIn = await fetch(`${api.url}/admin/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: ADMIN }),
    });
    const session = signedIn.headers.get('set-cookie')!.split(';')[0];
    const cookies = [...BAD_COOKIES.map((value) => `other=1; gw_admin_session=${value}`), `${session}; ${session}`];
    // The right bearer is admitted, a wrong one refused as without a cookie, and no bearer is told what is wrong.
    const expected = { right: [200, undefined], wrong: [401, 'UNAUTHORIZED'], none: [400, 'MALFORMED_COOKIE'] } as const;
    const tokens = { right: ADMIN, wrong: 'not-the-admin-token', none: undefined };
    const wrong: string[] = [];
    for (const cookie of cookies) {
      for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
        for (const [name, token] of Object.entries(tokens) as Array<[keyof typeof tokens, string | undefined]>) {
          const res = await call(path, { token, cookie });
          const code = res.status === 200 ? undefined : ((await res.json()) as { code: string }).code;
          const [status, expectedCode] = expected[name];
          if (res.status !== status || code !== expectedCode || !/gw_admin_session=;.*Max-Age=0/.test(res.headers.get('set-cookie') ?? '')) {
            wrong.push(`${path} ${name} bearer ${cookie.slice(0, 40)}: ${res.status} ${code} ${res.headers.get('set-cookie')}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // Where the cookie is not read, it changes nothing; the session itself still works.
    expect((await call('/admin/sign-in', { cookie: 'gw_admin_session=%E0%A4%A' })).status).toBe(200);
    expect((await call('/admin/accounts', { token: ADMIN, cookie: 'gw_admin_session=%E0%A4%A' })).status).toBe(200);
    expect((await call('/v1/audit/head', { token: KEY, cookie: 'gw_admin_session=%E0%A4%A' })).status).toBe(200);
    expect((await call('/admin/queues/api/queues', { cookie: session })).status).toBe(200);

    const lines = api.logLines();
    const warnings = lines.filter((l) => l.level === 40 && l.msg.includes('malformed gw_admin_session cookie'));
    expect(warnings).toHaveLength(cookies.length * 6);
    const logged = JSON.stringify(warnings);
    for (const value of BAD_COOKIES.filter((v) => v.length > 2)) expect({ value, logged: logged.includes(value) }).toEqual({ value, logged: false });
    expect(logged).not.toContain(session.split('=')[1]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  }, 60_000);
});
