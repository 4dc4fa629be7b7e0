import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { canonicalLog, chainHash } from '#libs/audit-chain';
import { acceptedLog, type LogRow } from '#libs/ai-log';
import { type RunningStandInModel, STAND_IN_MAGIC_MODELS, STAND_IN_MODEL, startStandInModel } from '#libs/llm-stand-in';
import { gatewaySuite } from './support/gateway-suite.js';

// An AI log that names the model calls behind it (modelCallIds): the calls must be the account's, the link is in the
// log's hash, and a log of orderId, stage and modelCallIds alone is filled from the calls.
const KEY = 'agent-key-for-model-call-log-tests';
const ADMIN = 'admin-token-for-model-call-log-tests';
const ORDER = '737185556881998184';
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
/** The README's shorthand log, as a user would paste it. */
const README_CURL = /```bash\n(curl [^`]*?modelCallIds[^`]*?)\n#/.exec(README)![1];
const MESSAGES = [{ role: 'user' as const, content: 'BTCUSDT funding 0.0001, basis 12.5. Long or short?' }];

describe('AI logs from recorded model calls', () => {
  const env: Record<string, string> = {
    AGENT_API_KEY: KEY,
    ADMIN_TOKEN: ADMIN,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    AUDIT_CHECK_INTERVAL_MS: '3600000',
  };
  let provider: RunningStandInModel;
  beforeAll(async () => {
    provider = await startStandInModel();
    env.LLM_UPSTREAM_URL = provider.url;
  });
  afterAll(() => provider?.close());
  // The periodic audit check is pushed out: the test runs it through GET /v1/audit/verify.
  const suite = gatewaySuite(env);

  const send = (token: string, path: string, body?: unknown) =>
    fetch(`${suite.harness.apiUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();
  const client = (key = KEY) => new OpenAI({ baseURL: `${suite.harness.apiUrl}/llm/openai/v1`, apiKey: key, maxRetries: 0 });
  const newestCallId = async (key = KEY): Promise<string> => (await json(send(key, '/v1/model-calls?limit=1'))).data[0].id;

  it('fills model, input, output and explanation from a call, and names it in the log and its hash', async () => {
    const answer = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    const callId = await newestCallId();
    const res = await send(KEY, '/v1/ai-logs', { orderId: ORDER, stage: 'decision', modelCallIds: [callId] });
    expect(res.status).toBe(202);
    const log = await json(send(KEY, `/v1/ai-logs/${(await json(res)).id}`));
    const text = answer.choices[0].message.content!;
    expect(log).toMatchObject({ orderId: ORDER, stage: 'decision', model: STAND_IN_MODEL, explanation: text, modelCallIds: [callId] });
    expect(log.input).toEqual({ modelCalls: [{ id: callId, source: 'proxy', request: { model: 'gpt-4o-mini', messages: MESSAGES } }] });
    expect(log.output.modelCalls).toEqual([
      {
        id: callId,
        responseId: answer.id,
        model: STAND_IN_MODEL,
        text,
        usage: { promptTokens: answer.usage!.prompt_tokens, completionTokens: answer.usage!.completion_tokens, totalTokens: answer.usage!.total_tokens },
      },
    ]);
    // The log's hash covers each call's link hash, and the gateway's own check recomputes it from model_calls: a call
    // rewritten after the log was accepted breaks the log's chain.
    const call = await json(send(KEY, `/v1/model-calls/${callId}`));
    const { rows } = await suite.db.query<LogRow>(
      `SELECT id::text, account_id, agent_key_id, seq::text AS seq, received_at, order_id::text AS order_id, stage, model, input, output,
              explanation, prev_hash, hash FROM ai_logs WHERE id = $1`,
      [log.id],
    );
    const row = { ...rows[0], model_calls: [{ id: callId, hash: call.chain.hash }] };
    expect(canonicalLog(acceptedLog(row))).toContain(`"modelCalls":[{"hash":"${call.chain.hash}","id":"${callId}"}]`);
    expect(chainHash(row.prev_hash!, canonicalLog(acceptedLog(row)))).toBe(row.hash);
    expect(chainHash(row.prev_hash!, canonicalLog(acceptedLog({ ...row, model_calls: null })))).not.toBe(row.hash);
    expect(await json(send(KEY, '/v1/audit/verify'))).toMatchObject({ ok: true, broken: null });
    await suite.db.query("UPDATE model_calls SET hash = repeat('0', 64) WHERE id = $1", [callId]);
    expect(await json(send(KEY, '/v1/audit/verify'))).toMatchObject({ ok: false, broken: { chain: 'logs', seq: log.chain.seq } });
    await suite.db.query('UPDATE model_calls SET hash = $2 WHERE id = $1', [callId, call.chain.hash]);
    expect(await json(send(KEY, '/v1/audit/verify'))).toMatchObject({ ok: true });
  });

  it("runs the README's shorthand log with the id from the answer's x-model-call-id header", async () => {
    const { response } = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES }).withResponse();
    const callId = response.headers.get('x-model-call-id')!;
    expect(callId).toBe(await newestCallId());
    const command = README_CURL.replaceAll('http://127.0.0.1:3000', suite.harness.apiUrl)
      .replaceAll('agk_...', KEY)
      .replace('0195f0c2-6a10-7b2e-8c41-1d6e7f8a9b00', callId);
    const { stdout } = await promisify(execFile)('bash', ['-c', command]);
    const log = await json(send(KEY, `/v1/ai-logs/${JSON.parse(stdout).id}`));
    expect(log).toMatchObject({ orderId: ORDER, model: STAND_IN_MODEL, modelCallIds: [callId] });
  });

  it('assembles a streamed answer, joins several calls in order, and keeps what the agent gave', async () => {
    const stream = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? '';
    const first = await newestCallId();
    await client().responses.create({ model: 'gpt-4o-mini', input: 'and now?' });
    const second = await newestCallId();
    const filled = await json(send(KEY, '/v1/ai-logs', { stage: 'decision', modelCallIds: [first, second], explanation: 'mine' }));
    const log = await json(send(KEY, `/v1/ai-logs/${filled.id}`));
    expect(log.modelCallIds).toEqual([first, second]);
    expect(log.output.modelCalls.map((c: { text: string }) => c.text)).toEqual([streamed, expect.stringMatching(/^HOLD\./)]);
    expect(log.explanation).toBe('mine');

    const own = await json(
      send(KEY, '/v1/ai-logs', { stage: 'decision', model: 'mine', input: { a: 1.1 }, output: { b: 2 }, explanation: 'x', modelCallIds: [first] }),
    );
    expect(await json(send(KEY, `/v1/ai-logs/${own.id}`))).toMatchObject({ model: 'mine', output: { b: 2 }, modelCallIds: [first] });
  });

  it('names the field, the rule and the call by its id when the last call answered no text to explain with', async () => {
    // A model that answers with a tool call only (content null), as function-calling agents' models do.
    const toolCall = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'buy', arguments: '{}' } }] };
    const answer = JSON.stringify({ id: 'chatcmpl-tool', object: 'chat.completion', model: 'tool-1', choices: [{ index: 0, message: toolCall }] });
    const toolModel = createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer)));
    await once(toolModel.listen(0, '127.0.0.1'), 'listening');
    try {
      await send(ADMIN, '/admin/accounts', { id: 'team-tools', name: 'T', apiKey: 'k', secret: 's', passphrase: 'p' });
      const key = (await json(send(ADMIN, '/admin/agents', { accountId: 'team-tools', label: 'tools' }))).key;
      const baseUrl = `http://127.0.0.1:${(toolModel.address() as AddressInfo).port}/v1`;
      await fetch(`${suite.harness.apiUrl}/admin/accounts/team-tools/llm-upstream`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ baseUrl, apiKey: 'sk-tools' }),
      });
      const call = async () => (await client(key).chat.completions.create({ model: 'tool-1', messages: MESSAGES }).withResponse()).response;
      const ids = [(await call()).headers.get('x-model-call-id')!, (await call()).headers.get('x-model-call-id')!];
      const message = `explanation is left out, so it is filled from the last call's answer text, but modelCallIds[1] (${ids[1]}) answered no text: give explanation`;
      const res = await send(key, '/v1/ai-logs', { orderId: ORDER, stage: 'decision', modelCallIds: ids });
      expect([res.status, (await json(res)).errors]).toEqual([400, [{ path: 'modelCallIds.1', message }]]);
      const batch = await json(send(key, '/v1/ai-logs/batch', { logs: [{ orderId: ORDER, stage: 'decision', modelCallIds: ids }] }));
      expect(batch.results[0].errors).toEqual([{ path: 'logs.0.modelCallIds.1', message }]);
    } finally {
      toolModel.closeAllConnections();
      toolModel.close();
    }
  });

  it('fills a log from a request whose numbers JavaScript cannot hold, digit for digit', async () => {
    const body = `{"model":"gpt-4o-mini","seed":9223372036854775807,"temperature":0.10,"messages":${JSON.stringify(MESSAGES)}}`;
    const proxied = await fetch(`${suite.harness.apiUrl}/llm/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    });
    expect(proxied.status).toBe(200);
    const callId = proxied.headers.get('x-model-call-id')!;
    const res = await send(KEY, '/v1/ai-logs', { orderId: ORDER, stage: 'decision', modelCallIds: [callId] });
    expect(res.status).toBe(202);
    const text = await (await send(KEY, `/v1/ai-logs/${(await json(res)).id}`)).text();
    expect(text).toContain('"seed":9223372036854775807,"temperature":0.10');
  });

  it('refuses a model PostgreSQL cannot store before calling, and fails no call made with it', async () => {
    const proxy = async (body: string) => {
      const res = await fetch(`${suite.harness.apiUrl}/llm/openai/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body,
      });
      return { status: res.status, body: await json(res), callId: res.headers.get('x-model-call-id') };
    };
    const bad = ['{"model":"m\\u0000","messages":[]}', '{"model":"m\\ud800","messages":[]}'];
    const good = Array.from({ length: 10 }, () =>
      client()
        .chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES })
        .then(() => 200),
    );
    const [refused, ...rest] = await Promise.all([Promise.all(bad.map(proxy)), ...good]);
    expect(refused.map((r) => [r.status, r.body.errors?.[0]?.path])).toEqual([
      [400, 'model'],
      [400, 'model'],
    ]);
    expect(rest).toEqual(Array(10).fill(200));

    // A call whose request reads as a lone surrogate is recorded (its text is the escape), but fills no log: in a batch,
    // that log alone is refused, naming the call.
    const lone = await proxy(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"\\ud800"}]}`);
    expect(lone.status).toBe(200);
    const batch = await send(KEY, '/v1/ai-logs/batch', {
      logs: [
        { stage: 'decision', modelCallIds: [lone.callId] },
        { stage: 'decision', model: 'm', input: {}, output: {}, explanation: 'x' },
      ],
    });
    const answer = await json(batch);
    expect([batch.status, answer.results.map((r: { status: string }) => r.status)]).toEqual([207, ['rejected', 'queued']]);
    expect(answer.results[0].errors[0]).toMatchObject({ path: 'logs.0.modelCallIds.0', message: expect.stringContaining('must be text PostgreSQL can store') });
  });

  it("names each call that is not the account's or cannot fill the log, and posts nothing", async () => {
    const other = (await json(send(ADMIN, '/admin/accounts', { id: 'team-b', name: 'B', apiKey: 'k', secret: 's', passphrase: 'p' }))).id;
    const teamB = (await json(send(ADMIN, '/admin/agents', { accountId: other, label: 'b' }))).key;
    await fetch(`${suite.harness.apiUrl}/admin/accounts/team-b/llm-upstream`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ baseUrl: provider.url, apiKey: 'sk-b' }),
    });
    await client(teamB).chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES });
    const foreign = await newestCallId(teamB);
    await expect(client().chat.completions.create({ model: STAND_IN_MAGIC_MODELS.invalid, messages: MESSAGES })).rejects.toThrow();
    const refused = await newestCallId();
    await client().models.list();
    const noModel = await newestCallId();
    const before = (await json(send(KEY, '/v1/ai-logs?limit=100'))).data.length;

    const cases: Array<[unknown, string[]]> = [
      [{ stage: 'decision', modelCallIds: [foreign] }, ['modelCallIds.0']],
      [{ stage: 'decision', modelCallIds: ['nope'] }, ['modelCallIds']], // "each value in modelCallIds must be a UUID"
      [{ stage: 'decision', modelCallIds: [] }, ['modelCallIds']],
      [{ stage: 'decision', modelCallIds: [noModel, noModel.toUpperCase()] }, ['modelCallIds']], // one call, named twice
      [{ stage: 'decision', modelCallIds: [refused] }, ['modelCallIds.0']],
      [{ stage: 'decision', modelCallIds: [noModel], explanation: 'listed the models' }, ['modelCallIds.0']],
      [{ stage: 'decision' }, ['explanation', 'input', 'model', 'output']],
      [{ stage: 'decision', modelCallIds: null }, ['explanation', 'input', 'model', 'output']], // null: left out
    ];
    for (const [body, paths] of cases) {
      const res = await send(KEY, '/v1/ai-logs', body);
      const answer = await json(res);
      expect([body, res.status, [...new Set(answer.errors.map((e: { path: string }) => e.path))].sort()]).toEqual([body, 400, paths]);
    }
    const batch = await json(
      send(KEY, '/v1/ai-logs/batch', {
        logs: [
          { stage: 'decision', modelCallIds: [foreign] },
          { stage: 'decision', modelCallIds: null },
        ],
      }),
    );
    expect(batch.results).toMatchObject([
      { status: 'rejected', errors: [{ path: 'logs.0.modelCallIds.0', message: expect.stringContaining('no model call') }] },
      { status: 'rejected', errors: expect.arrayContaining([{ path: 'logs.1.model', message: expect.any(String) }]) },
    ]);
    expect((await json(send(KEY, '/v1/ai-logs?limit=100'))).data.length).toBe(before);
  });
});
