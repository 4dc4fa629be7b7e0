import { request as httpRequest } from 'node:http';
import { gatewaySuite } from '../support/gateway-suite.js';

// What an outsider found at the edges of requests (issue 15's review, second round): every answer an ErrorBody that
// names the field or header and the rule, never a 500, never the path echoed back.
const ADMIN = 'admin-token-for-request-edges';
const suite = gatewaySuite({ ADMIN_TOKEN: ADMIN });
const admin = { authorization: `Bearer ${ADMIN}` };

describe('requests at the edges', () => {
  it('refuses U+0000 in a path parameter or a query value with 400 naming it, on every admin endpoint', async () => {
    const url = suite.harness.apiUrl;
    const cases: Array<[string, string, string]> = [
      ['GET', '/admin/logs?accountId=%00', 'accountId'],
      ['GET', '/admin/logs?error=%00', 'error'],
      ['GET', '/admin/accounts/%00', 'id'],
      ['GET', '/admin/accounts/%00/status', 'id'],
      ['POST', '/admin/accounts/%00/pause', 'id'],
      ['POST', '/admin/accounts/%00/resume', 'id'],
      ['PUT', '/admin/accounts/%00/credentials', 'id'],
      ['DELETE', '/admin/agents/%00', 'id'],
      ['GET', '/admin/agents?accountId=%00', 'accountId'],
    ];
    for (const [method, path, field] of cases) {
      const body = method === 'POST' || method === 'PUT' ? '{}' : undefined;
      const res = await fetch(`${url}${path}`, { method, body, headers: body ? { ...admin, 'content-type': 'application/json' } : admin });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(await res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ path: field, message: expect.stringContaining('PostgreSQL can store') }],
      });
    }
  });

  it('answers a URL that is not UTF-8 and an overlong path segment with an ErrorBody that does not echo the path', async () => {
    const url = suite.harness.apiUrl;
    for (const path of ['/v1/ai-logs/%zz', '/v1/ai-logs/%', '/v1/ai-logs/%C0%80', '/v1/ai-logs/%ED%A0%80']) {
      const res = await fetch(`${url}${path}`, { headers: admin });
      const body = await res.json();
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(body).toEqual({ statusCode: 400, code: 'BAD_REQUEST', message: expect.stringContaining('UTF-8'), requestId: res.headers.get('x-request-id') });
    }
    const long = `/v1/ai-logs/${'x'.repeat(5_000)}`;
    const res = await fetch(`${url}${long}`, { headers: admin });
    expect(res.status).toBe(414);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ statusCode: 414, code: 'URI_TOO_LONG', requestId: expect.any(String) });
    expect(text).not.toContain('xxxxxxxxxx');
    // A URL over Node's 16 KiB of request line and headers never becomes a request: Node's parser refuses it.
    const huge = await fetch(`${url}/v1/trades?${Array.from({ length: 3_000 }, (_, i) => `p${i}=1`).join('&')}`, { headers: admin });
    expect(huge.status).toBe(431);
    expect(await huge.json()).toEqual({
      statusCode: 431,
      code: 'HEADERS_TOO_LARGE',
      message: expect.stringContaining('16 KiB'),
      requestId: huge.headers.get('x-request-id'),
    });
  });

  it('refuses a query value or name whose percent-encoding is not UTF-8 with 400 naming it, instead of reading it replaced', async () => {
    const url = suite.harness.apiUrl;
    for (const [query, field] of [
      ['error=%FF', 'error'],
      ['error=%ED%A0%80', 'error'],
      ['status=failed&error=ok%C0%AF', 'error'],
      ['%FF=1', '%FF'],
    ]) {
      const res = await fetch(`${url}/admin/logs?${query}`, { headers: admin });
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: field, message: expect.stringContaining('UTF-8') }] });
    }
    // UTF-8, percent-encoded or not, is read as sent.
    for (const query of ['error=%E2%82%AC', 'error=€', 'error=a+b%20c'])
      expect((await fetch(`${url}/admin/logs?${query}`, { headers: admin })).status).toBe(200);
  });

  it('lists the first 50 failing fields and says how many there were, so a long query is not answered at length', async () => {
    const query = Array.from({ length: 200 }, (_, i) => `unknown${i}=1`).join('&');
    const res = await fetch(`${suite.harness.apiUrl}/admin/logs?${query}`, { headers: admin });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: unknown[] };
    expect(body).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Request validation failed: 200 errors, the first 50 listed' });
    expect(body.errors).toHaveLength(50);
    expect(body.errors[0]).toEqual({ path: 'unknown0', message: expect.stringContaining('unknown0') });
  });

  it('answers a body that is not JSON by its Content-Type with 415 naming the header', async () => {
    const url = suite.harness.apiUrl;
    const log = JSON.stringify({ stage: 'decision', model: 'm', input: {}, output: {}, explanation: 'typed' });
    const types: Array<Record<string, string>> = [{ 'content-type': 'text/plain' }, {}, { 'content-type': 'application/x-www-form-urlencoded' }];
    for (const headers of types) {
      const res = await fetch(`${url}/v1/ai-logs`, { method: 'POST', headers: { authorization: `Bearer ${suite.harness.agentKey}`, ...headers }, body: log });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Content-Type must be application/json' });
    }
  });

  it('keeps a number of a million digits as written, without reading it as a bigint', async () => {
    const digits = '7'.repeat(1_000_000);
    const res = await fetch(`${suite.harness.apiUrl}/v1/ai-logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.harness.agentKey}`, 'content-type': 'application/json' },
      body: `{"stage":"decision","model":"m","input":{"n":${digits}},"output":{},"explanation":"long number"}`,
    });
    expect(res.status).toBe(202);
    const { rows } = await suite.db.query(`SELECT length(input::text) AS n FROM ai_logs WHERE explanation = 'long number'`);
    expect(Number(rows[0].n)).toBe(digits.length + '{"n": }'.length - 1);
  });
});

/** One request with headers exactly as given, repeated names included (fetch would join them into one). */
function sendRawHeaders(url: string, method: string, headers: string[], body?: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    // Given as an array, the headers are sent as they are: Node adds neither Host nor a body length.
    const framing = ['Host', new URL(url).host, ...(body === undefined ? [] : ['Content-Length', String(Buffer.byteLength(body))])];
    const req = httpRequest(url, { method, headers: [...framing, ...headers] });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.end(body);
  });
}

describe('a header that would mean two things', () => {
  it('is refused with 400 naming it when sent twice: Authorization, Content-Type, Idempotency-Key', async () => {
    const url = `${suite.harness.apiUrl}/v1/ai-logs`;
    const log = JSON.stringify({ stage: 'decision', model: 'm', input: {}, output: {}, explanation: 'twice' });
    const key = `Bearer ${suite.harness.agentKey}`;
    const cases: Array<[string, string[]]> = [
      ['authorization', ['Authorization', key, 'authorization', 'Bearer agk_someone_else', 'Content-Type', 'application/json']],
      ['content-type', ['Authorization', key, 'Content-Type', 'application/json', 'Content-Type', 'text/plain']],
      ['idempotency-key', ['Authorization', key, 'Content-Type', 'application/json', 'Idempotency-Key', 'a', 'IDEMPOTENCY-KEY', 'b']],
    ];
    for (const [header, headers] of cases) {
      const res = await sendRawHeaders(url, 'POST', headers, log);
      expect({ header, status: res.status }).toEqual({ header, status: 400 });
      expect(res.json).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: header, message: `the ${header} header must be sent once` }] });
    }
    const { rows } = await suite.db.query(`SELECT count(*)::int AS n FROM ai_logs WHERE explanation = 'twice'`);
    expect(rows[0].n).toBe(0);
    // Once each, the same request is taken.
    const once = await sendRawHeaders(url, 'POST', ['Authorization', key, 'Content-Type', 'application/json', 'Idempotency-Key', 'c'], log);
    expect(once.status).toBe(202);
  });
});

describe('a large body from a caller without a valid key', () => {
  it('is refused 401 before it is read: the body never reaches the parser', async () => {
    const url = suite.harness.apiUrl;
    const big = `{"stage":"decision","model":"m","input":{"blob":"${'x'.repeat(500_000)}"},"output":{},"explanation":"no key"}`;
    // Malformed JSON too: parsed first, it would be a 400 MALFORMED_JSON; refused first, it is a 401.
    const broken = big.slice(0, -1);
    for (const authorization of [undefined, 'Bearer agk_not_a_key_of_this_gateway']) {
      const res = await fetch(`${url}/v1/ai-logs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: broken,
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
    }
    // With its key, the same broken body is read, and named for what it is.
    const keyed = await fetch(`${url}/v1/ai-logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.harness.agentKey}` },
      body: broken,
    });
    expect(keyed.status).toBe(400);
    expect(await keyed.json()).toMatchObject({ code: 'MALFORMED_JSON' });
  });
});
