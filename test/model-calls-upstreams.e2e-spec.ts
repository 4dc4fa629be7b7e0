import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { type RunningStandInModel, STAND_IN_MAGIC_MODELS, startStandInModel } from '#libs/llm-stand-in';
import { closedPort } from './support/closed-port.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

// Where model calls go, outside sandbox mode: the default account's provider from LLM_UPSTREAM_*, another account's
// as an admin stored it (its key sealed, never answered), none at all (503). And the gateway's own failures on the
// way, each an ErrorBody with its code, recorded too.
const ADMIN = 'admin-token-for-model-call-upstreams';
const KEY = 'agent-key-for-model-call-upstreams';
const TEAM_B_PROVIDER_KEY = 'sk-team-b-provider-key-0123456789';
const json = (res: Response): Promise<any> => res.json();
const CHAT = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Long or short?' }] });

describe('model providers per account, and the gateway failing on the way to one', () => {
  const env: Record<string, string> = {
    // Live mode against the test's simulator: no sandbox stand-in to fall back to.
    WEEX_API_KEY: 'sandbox-api-key',
    WEEX_API_SECRET: 'sandbox-api-secret',
    WEEX_API_PASSPHRASE: 'sandbox-passphrase',
    AGENT_API_KEY: KEY,
    ADMIN_TOKEN: ADMIN,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    LLM_UPSTREAM_TIMEOUT_MS: '1500',
    LLM_ANSWER_LIMIT_BYTES: '1024', // an ordinary answer here is about 500 bytes
  };
  let provider: RunningStandInModel;
  beforeAll(async () => {
    provider = await startStandInModel();
    env.LLM_UPSTREAM_URL = provider.url;
  });
  afterAll(() => provider?.close());
  const suite = gatewaySuite(env, { worker: false });

  const request = (path: string, token: string, init: { method?: string; body?: string; type?: string } = {}) =>
    fetch(`${suite.harness.apiUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': init.type ?? 'application/json' }) },
      body: init.body,
    });
  const rawGet = (path: string, token: string, method = 'GET'): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const { hostname, port } = new URL(suite.harness.apiUrl);
      const req = httpRequest({ hostname, port, path, method, headers: { authorization: `Bearer ${token}` } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject).end();
    });
  const chat = (token: string, body = CHAT) => request('/llm/openai/v1/chat/completions', token, { body });
  const admin = (path: string, method: string, body: unknown) => request(path, ADMIN, { method, body: JSON.stringify(body) });
  const agentKey = async (accountId: string, scopes = ['logs:write']): Promise<string> =>
    (await json(await admin('/admin/agents', 'POST', { accountId, label: 'model calls', scopes }))).key;
  const addAccount = async (id: string) =>
    expect((await admin('/admin/accounts', 'POST', { id, name: id, apiKey: 'k', secret: 's', passphrase: 'p' })).status).toBe(201);
  const newestCall = async (token: string) => {
    const { data } = await json(await request('/v1/model-calls?limit=1', token));
    return data[0];
  };

  it('takes an agent key with logs:write, JSON only, uncompressed, and the methods of a REST API', async () => {
    expect((await chat('no-such-agent-key-0000')).status).toBe(401);
    const reader = await agentKey('default', ['exchange:read']);
    const refused = await chat(reader);
    expect([refused.status, (await json(refused)).code]).toEqual([403, 'FORBIDDEN']);
    const text = await request('/llm/openai/v1/chat/completions', KEY, { body: CHAT, type: 'text/plain' });
    expect([text.status, (await json(text)).code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const gzipped = await fetch(`${suite.harness.apiUrl}/llm/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(CHAT),
    });
    expect([gzipped.status, await json(gzipped)]).toMatchObject([
      415,
      { code: 'UNSUPPORTED_CONTENT_ENCODING', message: 'Content-Encoding must be left out, not "gzip": the gateway records the request as sent' },
    ]);
    const trace = await rawGet('/llm/openai/v1/models', KEY, 'TRACE'); // fetch refuses to send TRACE
    const options = await request('/llm/openai/v1/models', KEY, { method: 'OPTIONS' });
    expect([trace.status, options.status, options.headers.get('allow'), (await json(options)).message]).toEqual([
      405,
      405,
      'GET, HEAD, POST, PUT, PATCH, DELETE',
      'the proxy forwards GET, HEAD, POST, PUT, PATCH, DELETE, not OPTIONS',
    ]);
    expect(provider.requests).toHaveLength(0);
  });

  it('takes bodies up to LLM_BODY_LIMIT_BYTES (4 MiB), beyond the API’s 1 MiB, and refuses larger ones', async () => {
    const image = (bytes: number) => JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(bytes) }] });
    expect((await chat(KEY, image(2 * 1024 * 1024))).status).toBe(200);
    const tooLarge = await chat(KEY, image(4 * 1024 * 1024));
    expect([tooLarge.status, await json(tooLarge)]).toMatchObject([
      413,
      { code: 'PAYLOAD_TOO_LARGE', message: 'the body is larger than 4194304 bytes, the most this path takes (LLM_BODY_LIMIT_BYTES)' },
    ]);
  });

  it("answers 504 LLM_UPSTREAM_TIMEOUT when the provider is too slow, and closes the provider's request", async () => {
    const res = await chat(KEY, JSON.stringify({ model: STAND_IN_MAGIC_MODELS.slow, messages: [] }));
    const body = await json(res);
    expect([res.status, body.code]).toEqual([504, 'LLM_UPSTREAM_TIMEOUT']);
    expect(body).toEqual({
      statusCode: 504,
      code: 'LLM_UPSTREAM_TIMEOUT',
      message: expect.stringContaining('LLM_UPSTREAM_TIMEOUT_MS'),
      requestId: expect.any(String),
    });
    await waitFor('the provider to see its request closed', async () => (provider.requests.at(-1)!.closedEarly ? true : undefined));
    expect(await newestCall(KEY)).toMatchObject({ requestedModel: STAND_IN_MAGIC_MODELS.slow, outcome: 'failed', httpStatus: null, error: body.message });
  });

  it('cuts off an answer longer than LLM_ANSWER_LIMIT_BYTES with LLM_ANSWER_TOO_LARGE, and records what came', async () => {
    const res = await chat(KEY, JSON.stringify({ model: STAND_IN_MAGIC_MODELS.slow, stream: true, messages: [] }));
    expect(res.status).toBe(200);
    const events = await res.text();
    const last = events.trim().split('\n\n').at(-1)!;
    expect(last).toMatch(/^event: error\ndata: /);
    const error = JSON.parse(last.slice(last.indexOf('data: ') + 6));
    expect(error.code).toBe('LLM_ANSWER_TOO_LARGE');
    expect(Buffer.byteLength(events)).toBeLessThan(1024 + 1024); // what was passed on, and the error event
    await waitFor('the provider to see its request closed', async () => (provider.requests.at(-1)!.closedEarly ? true : undefined));
    const call = await newestCall(KEY);
    expect(call).toMatchObject({ requestedModel: STAND_IN_MAGIC_MODELS.slow, outcome: 'failed', httpStatus: 200, error: error.message });
    // What came is what was passed on: the events the agent got, its error event included.
    expect((await json(await request(`/v1/model-calls/${call.id}`, KEY))).responseBody).toBe(events);
  });

  it('stores another account’s provider with its key sealed, never answered, and calls it with that key', async () => {
    await addAccount('team-b');
    const teamB = await agentKey('team-b');
    const refused = await admin('/admin/accounts/team-b/llm-upstream', 'PUT', { baseUrl: 'not a url', apiKey: '' });
    expect((await json(refused)).errors.map((e: { path: string }) => e.path).sort()).toEqual(['apiKey', 'baseUrl']);
    for (const [body, message] of [
      [{ baseUrl: 'http://127.0.0.1:99999/v1', apiKey: 'sk' }, 'baseUrl has port 99999: a port is 1 to 65535'],
      [{ baseUrl: '', apiKey: 'sk' }, 'baseUrl must be an http(s) URL, such as https://api.openai.com/v1'],
      [
        { baseUrl: provider.url, apiKey: 'sk-1\r\nX-Injected: 1' },
        'apiKey must be printable ASCII without spaces or line breaks: it is sent in the Authorization header',
      ],
    ] as const) {
      expect((await json(await admin('/admin/accounts/team-b/llm-upstream', 'PUT', body))).errors).toEqual([
        { path: Object.keys(body)[message.startsWith('apiKey') ? 1 : 0], message },
      ]);
    }
    expect((await admin('/admin/accounts/default/llm-upstream', 'PUT', { baseUrl: provider.url, apiKey: 'x' })).status).toBe(409);
    expect((await admin('/admin/accounts/no-such/llm-upstream', 'PUT', { baseUrl: provider.url, apiKey: 'x' })).status).toBe(404);
    const set = await admin('/admin/accounts/team-b/llm-upstream', 'PUT', { baseUrl: `${provider.url}/`, apiKey: TEAM_B_PROVIDER_KEY });
    const answer = await set.text();
    expect([set.status, JSON.parse(answer)]).toEqual([200, { accountId: 'team-b', baseUrl: provider.url, apiKey: 'stored' }]);
    expect(answer).not.toContain(TEAM_B_PROVIDER_KEY);
    const { rows } = await suite.db.query(`SELECT llm_base_url, llm_key_enc FROM accounts WHERE id = 'team-b'`);
    expect(rows[0].llm_base_url).toBe(provider.url);
    expect(rows[0].llm_key_enc).toMatch(/^v1\./);
    expect(rows[0].llm_key_enc).not.toContain(TEAM_B_PROVIDER_KEY);

    expect((await chat(teamB)).status).toBe(200);
    expect(provider.requests.at(-1)!.authorization).toBe(`Bearer ${TEAM_B_PROVIDER_KEY}`);
    // Each account's calls are a chain of their own, and its agents see only theirs.
    const call = await newestCall(teamB);
    expect([call.accountId, call.chain.seq]).toEqual(['team-b', '1']);
    expect((await request(`/v1/model-calls/${call.id}`, KEY)).status).toBe(404);
    const listed = await json(await request('/v1/model-calls', KEY));
    expect(listed.data.every((c: { accountId: string }) => c.accountId === 'default')).toBe(true);
  });

  it('answers 502 LLM_UPSTREAM_UNREACHABLE for a provider nothing listens at, and 503 LLM_UPSTREAM_NOT_CONFIGURED for none', async () => {
    await addAccount('team-c');
    const teamC = await agentKey('team-c');
    const none = await chat(teamC);
    expect([none.status, (await json(none)).code]).toEqual([503, 'LLM_UPSTREAM_NOT_CONFIGURED']);
    expect(await newestCall(teamC)).toBeUndefined(); // nothing was called

    expect((await admin('/admin/accounts/team-c/llm-upstream', 'PUT', { baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, apiKey: 'k' })).status).toBe(200);
    const unreachable = await chat(teamC);
    const body = await json(unreachable);
    expect([unreachable.status, body.code]).toEqual([502, 'LLM_UPSTREAM_UNREACHABLE']);
    expect(body.message).toContain('ECONNREFUSED');
    const call = await newestCall(teamC);
    expect(call).toMatchObject({ outcome: 'failed', httpStatus: null, error: body.message, firstByteAt: null });
    expect(call).not.toHaveProperty('responseBody'); // a list leaves the bodies out
  });

  it('keeps every call below the provider’s base path, and refuses a provider URL with a password or a query', async () => {
    const seen = provider.requests.length;
    for (const path of ['../admin', '%2e%2e/%2e%2e/admin', 'chat/completions/../../../x', 'a%2Fb', './models', 'chat%00/completions']) {
      // As `curl --path-as-is` sends it: fetch would resolve the dots before sending.
      const res = await rawGet(`/llm/openai/v1/${path}`, KEY);
      expect([path, res.status, JSON.parse(res.body).errors?.[0]?.path]).toEqual([path, 400, 'path']);
    }
    const withKey = await rawGet(`/llm/openai/v1/models?key=${encodeURIComponent(KEY)}`, KEY);
    expect([withKey.status, JSON.parse(withKey.body).errors]).toEqual([
      400,
      [{ path: 'path', message: 'the URL holds the agent key: send it only in the Authorization header (the URL goes to the provider and into the record)' }],
    ]);
    expect(provider.requests.length).toBe(seen);
    for (const baseUrl of ['http://user:secret@127.0.0.1:9/v1', 'http://127.0.0.1:9/v1?key=1']) {
      const res = await admin('/admin/accounts/team-b/llm-upstream', 'PUT', { baseUrl, apiKey: 'k' });
      const body = await json(res);
      expect([res.status, body.errors.map((e: { path: string }) => e.path)]).toEqual([400, ['baseUrl']]);
      expect(JSON.stringify(body)).not.toContain('secret@');
    }
  });

  it('answers 508 LLM_UPSTREAM_LOOP when an account’s provider URL leads back to the gateway', async () => {
    await addAccount('team-loop');
    const key = await agentKey('team-loop');
    const self = `${suite.harness.apiUrl}/llm/openai/v1`;
    expect((await admin('/admin/accounts/team-loop/llm-upstream', 'PUT', { baseUrl: self, apiKey: key })).status).toBe(200);
    const res = await chat(key);
    expect([res.status, (await json(res)).code]).toEqual([508, 'LLM_UPSTREAM_LOOP']);
    // One call went out (and came back refused); the refused one was never made, so it is not recorded.
    const { data } = await json(await request('/v1/model-calls', key));
    expect(data.map((c: { httpStatus: number }) => c.httpStatus)).toEqual([508]);
    // With a provider key that is no agent key, the loop is named too, not answered as a 401 about that key.
    expect((await admin('/admin/accounts/team-loop/llm-upstream', 'PUT', { baseUrl: self, apiKey: 'sk-not-an-agent-key' })).status).toBe(200);
    const again = await chat(key);
    expect([again.status, (await json(again)).code]).toEqual([508, 'LLM_UPSTREAM_LOOP']);
  });

  it('reads a call only with a key that reads the account, and names a bad cursor', async () => {
    const judge = await agentKey('default', ['audit:read']);
    expect((await request('/v1/model-calls', judge)).status).toBe(200);
    const cancelOnly = await agentKey('default', ['exchange:cancel']);
    expect((await request('/v1/model-calls', cancelOnly)).status).toBe(403);
    const bad = await request('/v1/model-calls?cursor=nonsense', KEY);
    expect([bad.status, (await json(bad)).errors]).toEqual([400, [{ path: 'cursor', message: expect.any(String) }]]);
    expect((await request('/v1/model-calls/not-a-uuid', KEY)).status).toBe(404);
  });
});
