import { gatewaySuite } from '../support/gateway-suite.js';

const ADMIN = 'admin-token-for-read-scope-tests';
const WRITER = 'agent-key-that-posts-logs-only';
const json = (res: Response): Promise<any> => res.json();

describe('GET /v1/ai-logs/:id needs logs:write, exchange:read or audit:read', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: WRITER, AGENT_API_KEY_SCOPES: 'logs:write', ADMIN_TOKEN: ADMIN }, { worker: false });

  const call = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${suite.harness!.apiUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  const keyWith = async (scopes: string[]): Promise<string> => {
    const res = await call('/admin/agents', ADMIN, { method: 'POST', body: JSON.stringify({ accountId: 'default', label: scopes.join(' '), scopes }) });
    expect(res.status).toBe(201);
    return (await json(res)).key;
  };

  it('lets the key that posts logs, a key that reads the account and a judge key read a log; refuses a cancel-only key with 403', async () => {
    const posted = await call('/v1/ai-logs', WRITER, { method: 'POST', body: '{"stage":"s","model":"m","input":{},"output":{},"explanation":"e"}' });
    expect(posted.status).toBe(202);
    const { id } = await json(posted);
    expect(await json(await call(`/v1/ai-logs/${id}`, WRITER))).toMatchObject({ id, status: 'queued' });
    expect((await call(`/v1/ai-logs/${id}`, await keyWith(['exchange:read']))).status).toBe(200);
    expect((await call(`/v1/ai-logs/${id}`, await keyWith(['audit:read']))).status).toBe(200);
    const cancelOnly = await call(`/v1/ai-logs/${id}`, await keyWith(['exchange:cancel']));
    expect(cancelOnly.status).toBe(403);
    expect(await json(cancelOnly)).toMatchObject({ code: 'FORBIDDEN', message: 'this agent key lacks the scope logs:write or exchange:read or audit:read' });
  });

  it('documents the scope in the OpenAPI document', async () => {
    const doc = await json(await fetch(`${suite.harness.apiUrl}/docs-json`));
    const get = doc.paths['/v1/ai-logs/{id}'].get;
    expect(get.description).toMatch(/logs:write.*exchange:read/);
    expect(Object.keys(get.responses)).toContain('403');
  });
});
