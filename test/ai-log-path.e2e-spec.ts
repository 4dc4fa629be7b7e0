import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { SANDBOX_CREDENTIALS } from '#libs/config';
import { startHarness, type Harness } from './support/gateway-harness.js';
import { REDIS_URL } from './support/services.js';
import { createTempDatabase } from './support/temp-database.js';
import { waitFor } from './support/wait-for.js';

// Test bodies are read loosely and checked by the assertions.
const json = (res: Response): Promise<any> => res.json();

const ORDER_ID = '737185556881998184';
const LOG_BODY = `{"orderId":${ORDER_ID},"stage":"decision","model":"gpt-trader-2","input":{"candles":[1,2,3],"big":123456789012345678901234567890},"output":{"action":"BUY"},"explanation":"Momentum is up."}`;

interface Mode {
  name: string;
  /** Environment of the run; DATABASE_URL is filled in with a fresh database when `database` is set. */
  env: Record<string, string>;
  database: boolean;
  uploadPath: string;
}

const modes: Mode[] = [
  { name: 'PostgreSQL and Redis on 127.0.0.1', env: { REDIS_URL }, database: true, uploadPath: '/capi/v3/order/uploadAiLog' },
  {
    name: 'embedded mode (PGlite, BullMQ on PostgreSQL), v2 upload path',
    env: { WEEX_UPLOAD_API_VERSION: 'v2' },
    database: false,
    uploadPath: '/capi/v2/order/uploadAiLog',
  },
];

describe.each(modes)('one AI log from agent to exchange: $name', (mode) => {
  let harness: Harness;
  let db: pg.Client;
  let dropDatabase = async () => {};

  beforeAll(async () => {
    const env = { ...mode.env };
    if (mode.database) {
      const temp = await createTempDatabase();
      env.DATABASE_URL = temp.url;
      dropDatabase = temp.drop;
    }
    harness = await startHarness(env);
    db = new pg.Client({ connectionString: harness.gateway.runtime.databaseUrl });
    await db.connect();
  }, 60_000);

  afterAll(async () => {
    await db?.end();
    await harness?.close();
    await dropDatabase();
  });

  const post = (body: string, key = harness!.agentKey, path = '/v1/ai-logs') =>
    fetch(`${harness!.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
  const get = (id: string) => fetch(`${harness!.apiUrl}/v1/ai-logs/${id}`, { headers: { authorization: `Bearer ${harness!.agentKey}` } });
  const countLogs = async () => Number((await db.query('SELECT count(*) FROM ai_logs')).rows[0].count);

  it('answers 202 only once the log is committed, with the 64-bit order id intact in PostgreSQL', async () => {
    const res = await post(LOG_BODY);
    expect(res.status).toBe(202);
    const accepted = await json(res);
    expect(accepted).toEqual({ id: expect.any(String), status: 'queued', receivedAt: expect.any(String) });
    // Another connection sees the row as soon as the answer arrives: it was committed before the 202.
    const row = (await db.query('SELECT order_id::text AS order_id, input FROM ai_logs WHERE id = $1', [accepted.id])).rows[0];
    expect(row.order_id).toBe(ORDER_ID);
    expect(row.input).toBe('{"candles":[1,2,3],"big":123456789012345678901234567890}');
  });

  it('uploads it, signed, with the order id as a bare JSON integer, and shows every attempt', async () => {
    const { id } = await json(await post(LOG_BODY));
    const view = await waitFor('the log to be uploaded', async () => {
      const body = await json(await get(id));
      return body.status === 'uploaded' ? body : undefined;
    });
    expect(view).toMatchObject({ id, orderId: ORDER_ID, target: 'simulator', stage: 'decision', model: 'gpt-trader-2' });
    expect(view.attempts).toEqual([expect.objectContaining({ outcome: 'uploaded', httpStatus: 200, target: 'simulator', exchangeMessage: 'success' })]);
    const upload = harness.simulator.state.uploads().find((u) => u.rawBody.includes(`"orderId":${ORDER_ID},`) && u.seq);
    expect(upload).toBeDefined();
    expect(upload!.path).toBe(mode.uploadPath);
    expect(upload!.rawBody).toBe(LOG_BODY);
    // An HMAC-SHA256 computed here, independently of the gateway's signing code, accepts the recorded request.
    const prehash = `${upload!.timestamp}POST${upload!.path}${upload!.rawBody}`;
    expect(createHmac('sha256', SANDBOX_CREDENTIALS.secret).update(prehash).digest('base64')).toBe(upload!.signature);
  });

  it("answers with the caller's X-Request-Id, or a new one", async () => {
    const traced = await fetch(`${harness.apiUrl}/v1/ai-logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.agentKey}`, 'content-type': 'application/json', 'x-request-id': 'agent-trace-42' },
      body: LOG_BODY,
    });
    expect([traced.status, traced.headers.get('x-request-id')]).toEqual([202, 'agent-trace-42']);
    expect((await post(LOG_BODY)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('returns input and output with every digit they had', async () => {
    const { id } = await json(await post(LOG_BODY));
    const text = await (await get(id)).text();
    expect(text).toContain('"input":{"candles":[1,2,3],"big":123456789012345678901234567890}');
    expect(text).toContain(`"orderId":"${ORDER_ID}"`);
  });

  it('rejects bad input with one 400 naming every failing field, and stores nothing', async () => {
    const before = await countLogs();
    const res = await post('{"orderId":"12a","stage":"","input":[1],"explanation":' + JSON.stringify('x'.repeat(1001)) + ',"extra":1}');
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', requestId: expect.any(String) });
    expect(res.headers.get('x-request-id')).toBe(body.requestId);
    const paths = new Set(body.errors.map((e: { path: string }) => e.path));
    expect([...paths].sort()).toEqual(['explanation', 'extra', 'input', 'model', 'orderId', 'output', 'stage']);
    for (const error of body.errors) expect(error.message).toEqual(expect.any(String));
    expect(await countLogs()).toBe(before);
  });

  it('counts explanation in UTF-16 code units, as WEEX (Java) does: 1000 accepted and uploaded, 1001 refused, an emoji counting 2', async () => {
    const log = (explanation: string) => JSON.stringify({ orderId: ORDER_ID, stage: 'decision', model: 'm', input: {}, output: {}, explanation });
    const before = await countLogs();
    // 999 + one emoji: 1000 code points (Python's len()), 1001 UTF-16 units (Java's String.length()).
    for (const [explanation, units, codePoints] of [
      ['x'.repeat(1001), 1001, 1001],
      ['x'.repeat(999) + '😀', 1001, 1000],
      ['😀'.repeat(501), 1002, 501],
    ] as const) {
      const refused = await post(log(explanation));
      expect(refused.status).toBe(400);
      expect((await json(refused)).errors).toEqual([
        {
          path: 'explanation',
          message: `explanation must be at most 1000 characters counted as UTF-16 code units, as WEEX (Java) counts them, an emoji counting 2; got ${units} (${codePoints} code points)`,
        },
      ]);
    }
    expect(await countLogs()).toBe(before);
    const ids: string[] = [];
    for (const explanation of ['x'.repeat(1000), 'x'.repeat(998) + '😀']) {
      const accepted = await post(log(explanation));
      expect(accepted.status).toBe(202);
      ids.push((await json(accepted)).id);
    }
    // The simulator counts as WEEX is taken to: what the gateway accepts, the exchange takes.
    for (const id of ids) {
      await waitFor(`log ${id} to be uploaded`, async () => ((await json(await get(id))).status === 'uploaded' ? true : undefined));
    }
  });

  it("the README's Python fit() cuts an explanation to what the gateway accepts, never splitting an emoji", async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const fit = /^def fit\(.*\n(?: {4}.*\n)+/m.exec(readme)![0];
    const script = `${fit}\nimport json, sys\nprint(json.dumps([fit(s) for s in json.load(sys.stdin)]))`;
    const long = ['x'.repeat(999) + '😀', '😀'.repeat(600), 'x'.repeat(1500), 'x'.repeat(998) + '😀'];
    const cut = JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(long), encoding: 'utf8' })) as string[];
    expect(cut.map((s) => s.length)).toEqual([999, 1000, 1000, 1000]);
    for (const explanation of cut) {
      const res = await post(JSON.stringify({ stage: 'decision', model: 'm', input: {}, output: {}, explanation }));
      expect(res.status).toBe(202);
    }
  });

  it('rejects malformed JSON and unknown agents without storing anything', async () => {
    const before = await countLogs();
    const malformed = await post('{"stage": ');
    expect(malformed.status).toBe(400);
    expect(await json(malformed)).toMatchObject({ code: 'MALFORMED_JSON' });
    const unknown = await post(LOG_BODY, 'agk_not-a-key');
    expect(unknown.status).toBe(401);
    expect(await countLogs()).toBe(before);
  });

  it('accepts a batch item by item: 207, the good ones committed and uploaded, the bad one named', async () => {
    const before = await countLogs();
    const bad = '{"stage":"","model":"m","input":{},"output":{},"explanation":""}';
    const res = await post(`{"logs":[${LOG_BODY},${bad},${LOG_BODY.replace('decision', 'exit')}]}`, undefined, '/v1/ai-logs/batch');
    expect(res.status).toBe(207);
    const { results } = await json(res);
    expect(results.map((r: { index: number; status: string }) => [r.index, r.status])).toEqual([
      [0, 'queued'],
      [1, 'rejected'],
      [2, 'queued'],
    ]);
    expect(results[1].errors).toEqual([expect.objectContaining({ path: 'logs.1.stage' })]);
    expect(await countLogs()).toBe(before + 2);
    for (const { id } of [results[0], results[2]]) {
      await waitFor(`batch log ${id} to be uploaded`, async () => ((await json(await get(id))).status === 'uploaded' ? true : undefined));
    }
    const envelope = await post('[1,2]', undefined, '/v1/ai-logs/batch');
    expect(envelope.status).toBe(400);
  });

  it('answers 413 for a body over the limit, in the same error shape', async () => {
    const res = await post(`{"stage":"${'x'.repeat(1_100_000)}"}`);
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', requestId: expect.any(String) });
  });

  it('answers 404 for a log of another id', async () => {
    const res = await get('00000000-0000-7000-8000-000000000000');
    expect(res.status).toBe(404);
  });
});
