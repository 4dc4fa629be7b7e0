import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiCaller } from './support/exchange-api.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

// Error codes as documented: every `<status> <CODE>` the README names is answered by a running gateway, provoked over
// HTTP by an end-to-end test; the ones no other test provokes are provoked here.
const ROOT = new URL('..', import.meta.url).pathname;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DOCUMENTED = [...new Set([...README.matchAll(/`(\d{3}) ([A-Z][A-Z_]+)`/g)].map((m) => `${m[1]} ${m[2]}`))];
const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.e2e-spec.ts') ? [join(dir, e.name)] : [],
  );

const ADMIN = 'admin-token-for-error-codes';
const KEY = 'agent-key-for-error-codes';

describe('error codes, as documented', () => {
  const suite = gatewaySuite({ ADMIN_TOKEN: ADMIN, AGENT_API_KEY: KEY }, { worker: false });
  const api = () => apiCaller(suite, KEY);
  const faults = (body?: object) =>
    fetch(
      `${suite.harness.simulator.url}/__sim/faults`,
      body ? { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : { method: 'DELETE' },
    );
  afterEach(() => faults());

  it('every documented code is provoked by an end-to-end test that expects that status with it', () => {
    expect(DOCUMENTED.length).toBeGreaterThan(10);
    const sources = testFiles(join(ROOT, 'test')).map((file) => readFileSync(file, 'utf8'));
    const unprovoked = DOCUMENTED.filter((entry) => {
      const [status, code] = entry.split(' ');
      return !sources.some((text) => text.includes(`'${code}'`) && text.includes(status));
    });
    expect(unprovoked).toEqual([]);
  });

  it("answers 403 EXCHANGE_PERMISSION_DENIED and 502 EXCHANGE_REQUEST_MALFORMED for the exchange's codes, with them", async () => {
    expect((await api().get('/v1/symbol-config')).status).toBe(200); // the clock is read: the fault meets the call itself
    const cases: Array<[string, number, string]> = [
      ['-1050', 403, 'EXCHANGE_PERMISSION_DENIED'],
      ['-1135', 502, 'EXCHANGE_REQUEST_MALFORMED'],
    ];
    for (const [exchangeCode, status, code] of cases) {
      expect(
        (await faults({ answerWithoutCode: JSON.stringify({ code: exchangeCode, msg: 'as WEEX says it' }), paths: ['/capi/v3/account/position/allPosition'] }))
          .ok,
      ).toBe(true);
      const res = await api().get('/v1/positions');
      expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
      expect(res.body.exchange).toMatchObject({ operation: 'allPositions', code: exchangeCode });
    }
  });

  it('answers 502 EXCHANGE_PATH_NOT_FOUND when an account points at a URL where the exchange serves nothing', async () => {
    const admin = (path: string, body: object) =>
      fetch(`${suite.harness.apiUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const wrongBase = `${suite.harness.simulator.url}/not-the-api`;
    const credentials = { apiKey: 'sandbox-api-key', secret: 'sandbox-api-secret', passphrase: 'sandbox-passphrase' };
    expect(
      (await admin('/admin/accounts', { id: 'wrong-base', name: 'wrong base URL', ...credentials, baseUrl: wrongBase, spotBaseUrl: wrongBase })).status,
    ).toBe(201);
    const created = (await (await admin('/admin/agents', { accountId: 'wrong-base', label: 'x', scopes: ['exchange:read'] })).json()) as { key: string };
    const res = await waitFor('the account to reach every process', async () => {
      const answer = await apiCaller(suite, created.key).get('/v1/positions');
      return answer.status === 409 ? undefined : answer;
    });
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 502, code: 'EXCHANGE_PATH_NOT_FOUND' });
    expect(res.text).not.toContain('sandbox-api-secret');
  });
});
