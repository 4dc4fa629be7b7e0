import { gatewaySuite } from './support/gateway-suite.js';

const KEY = 'agent-key-for-scope-tests-read-only';
const LOG = '{"stage":"decision","model":"m1","input":{"a":1},"output":{"b":2},"explanation":"why"}';

describe('agent key scopes', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, AGENT_API_KEY_SCOPES: 'exchange:read' }, { worker: false });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${suite.harness!.apiUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...init.headers },
    });

  it('refuses a log from a key without logs:write with a 403 naming the scope, and stores nothing', async () => {
    for (const path of ['/v1/ai-logs', '/v1/ai-logs/batch']) {
      const res = await call(path, { method: 'POST', body: path.endsWith('batch') ? `{"logs":[${LOG}]}` : LOG });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('logs:write') });
    }
    expect(Number((await suite.db.query('SELECT count(*) FROM ai_logs')).rows[0].count)).toBe(0);
  });

  it('stores the configured scopes with the key', async () => {
    const { rows } = await suite.db.query("SELECT scopes FROM agent_keys WHERE label = 'AGENT_API_KEY'");
    expect(rows).toEqual([{ scopes: ['exchange:read'] }]);
  });
});
