import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import { canonicalJson, chainHash, GENESIS_HASH } from '#libs/audit-chain';
import { type RunningStandInModel, STAND_IN_MAGIC_MODELS, STAND_IN_MODEL, startStandInModel } from '#libs/llm-stand-in';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

// "Log with no code": an agent's own OpenAI client, pointed at the gateway, reaches its provider (here the stand-in
// model, started by the test) through /llm/openai/v1, gets the provider's answers unchanged, and every call is recorded
// before its answer ended, in a hash chain of the account's model calls.
const KEY = 'agent-key-for-model-call-tests';
const PROVIDER_KEY = 'sk-provider-key-of-the-default-account';
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
/** What a span of /otlp/v1/traces has and the proxy's calls have not. */
const SPAN_FIELDS = ['traceId', 'spanId', 'parentSpanId', 'spanName', 'serviceName', 'provider', 'operation', 'weexOrderId', 'weexStage', 'weexExplanation'];
const MESSAGES = [{ role: 'user' as const, content: 'BTCUSDT 1h candles: 64250.5, 64310, 64188.25. Long or short?' }];

describe('model calls through /llm/openai/v1 (the openai package for Node)', () => {
  const env: Record<string, string> = { AGENT_API_KEY: KEY, LLM_UPSTREAM_KEY: PROVIDER_KEY };
  let provider: RunningStandInModel;
  beforeAll(async () => {
    provider = await startStandInModel();
    env.LLM_UPSTREAM_URL = provider.url;
  });
  afterAll(() => provider?.close());
  const suite = gatewaySuite(env, { worker: false });

  const client = () => new OpenAI({ baseURL: `${suite.harness.apiUrl}/llm/openai/v1`, apiKey: KEY, maxRetries: 0 });
  const get = async (path: string): Promise<any> => (await fetch(`${suite.harness.apiUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
  /** The newest call, read the moment the client has its answer: the record must already be there. */
  const newestCall = async () => {
    const { data } = await get('/v1/model-calls?limit=1');
    return get(`/v1/model-calls/${data[0].id}`);
  };
  const lastProviderRequest = () => provider.requests.at(-1)!;

  it('passes a chat completion on unchanged, with the provider key, and has recorded it before the answer', async () => {
    const { data, response } = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES }).withResponse();
    const call = await newestCall();
    const seen = lastProviderRequest();
    expect(data.choices[0].message.content).toMatch(/^HOLD\. The stand-in model read \d+ words/);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(seen.authorization).toBe(`Bearer ${PROVIDER_KEY}`); // the provider's key, never the agent's
    expect(call).toMatchObject({
      method: 'POST',
      path: '/chat/completions',
      upstreamUrl: provider.url,
      requestedModel: 'gpt-4o-mini',
      answeredModel: STAND_IN_MODEL,
      responseId: data.id,
      httpStatus: 200,
      outcome: 'answered',
      error: null,
      usage: { promptTokens: data.usage!.prompt_tokens, completionTokens: data.usage!.completion_tokens, totalTokens: data.usage!.total_tokens },
      responseEncoding: 'utf8',
    });
    expect(data.id).toMatch(/^chatcmpl-/);
    // What the provider got is what the agent sent, and what the agent got is what the provider answered.
    expect(call.requestBody).toBe(seen.body);
    expect(call.responseBody).toBe(seen.answered);
    expect(JSON.parse(call.responseBody)).toEqual(JSON.parse(JSON.stringify(data)));
    expect([call.requestSha256, call.responseSha256]).toEqual([sha256(seen.body), sha256(seen.answered)]);
    expect(Date.parse(call.startedAt)).toBeLessThanOrEqual(Date.parse(call.firstByteAt));
    expect(Date.parse(call.firstByteAt)).toBeLessThanOrEqual(Date.parse(call.finishedAt));
  });

  it('forwards the exact bytes it was sent, and answers the exact bytes the provider sent', async () => {
    // Quotes, backslashes and `$1 $& $$` too: the record goes to PostgreSQL as an escaped literal, not a parameter.
    const body = `{ "model" : "gpt-4o-mini",\n  "messages": [{"role":"user","content":"é 😀 \\u00e9 \\ud83d\\ude00 12345678901234567890.10 it's \\\\ \\" $1 $& $$ $\`"}] }`;
    const res = await fetch(`${suite.harness.apiUrl}/llm/openai/v1/chat/completions?trace=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    });
    const answer = Buffer.from(await res.arrayBuffer());
    const seen = lastProviderRequest();
    expect([res.status, seen.path, seen.body]).toEqual([200, '/chat/completions?trace=1', body]);
    expect(answer.toString('utf8')).toBe(seen.answered);
    const call = await newestCall();
    expect([call.path, call.requestBody, call.requestSha256, call.responseSha256]).toEqual([
      '/chat/completions?trace=1',
      body,
      sha256(Buffer.from(body)),
      sha256(answer),
    ]);
  });

  it('passes a stream on chunk by chunk, [DONE] only once recorded, with the usage of its last chunk', async () => {
    const stream = await client().chat.completions.create({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const call = await newestCall(); // at once: the stream's end came after the commit
    const seen = lastProviderRequest();
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    const usage = chunks.at(-1)!.usage!;
    expect(chunks.length).toBeGreaterThan(10);
    expect(text).toMatch(/^HOLD\. The stand-in model read \d+ words/);
    expect(seen.answered.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(call).toMatchObject({
      responseId: chunks[0].id,
      answeredModel: STAND_IN_MODEL,
      httpStatus: 200,
      outcome: 'answered',
      usage: { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, totalTokens: usage.total_tokens },
    });
    expect(call.responseBody).toBe(seen.answered);
    expect(call.responseSha256).toBe(sha256(seen.answered));
  });

  it('passes the Responses API on, whole and streamed, and records its ids, model and usage', async () => {
    const whole = await client().responses.create({ model: 'gpt-4.1-mini', input: 'Funding is positive. Long or short?' });
    let call = await newestCall();
    expect(whole.output_text).toMatch(/^HOLD\. The stand-in model read \d+ words/);
    expect(call).toMatchObject({ path: '/responses', requestedModel: 'gpt-4.1-mini', responseId: whole.id, answeredModel: STAND_IN_MODEL });
    expect(call.usage).toEqual({
      promptTokens: whole.usage!.input_tokens,
      completionTokens: whole.usage!.output_tokens,
      totalTokens: whole.usage!.total_tokens,
    });

    const events = [];
    for await (const event of await client().responses.create({ model: 'gpt-4.1-mini', input: 'And now?', stream: true })) events.push(event);
    call = await newestCall();
    const completed = events.at(-1)!;
    expect(completed.type).toBe('response.completed');
    if (completed.type !== 'response.completed') throw new Error('unreachable');
    expect(call).toMatchObject({
      responseId: completed.response.id,
      outcome: 'answered',
      usage: { promptTokens: 2, completionTokens: completed.response.usage!.output_tokens },
    });
    expect(call.responseBody).toBe(lastProviderRequest().answered);
  });

  it("passes the provider's errors on as it sent them: a 429 with its Retry-After, a 400 naming the parameter", async () => {
    const failure = await client()
      .chat.completions.create({ model: STAND_IN_MAGIC_MODELS.rateLimited, messages: MESSAGES })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    const limited = failure as InstanceType<typeof OpenAI.RateLimitError>;
    expect([limited.status, limited.code, limited.headers?.get('retry-after')]).toEqual([429, 'rate_limit_exceeded', '7']);
    expect(await newestCall()).toMatchObject({ httpStatus: 429, outcome: 'answered', responseBody: lastProviderRequest().answered });

    const res = await fetch(`${suite.harness.apiUrl}/llm/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: STAND_IN_MAGIC_MODELS.invalid, messages: MESSAGES }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(lastProviderRequest().answered);
    expect(await newestCall()).toMatchObject({ httpStatus: 400, outcome: 'answered', requestedModel: STAND_IN_MAGIC_MODELS.invalid, answeredModel: null });
  });

  it('cancels the call at the provider when the agent aborts a stream, and records what came until then', async () => {
    const abort = new AbortController();
    const stream = await client().chat.completions.create({ model: STAND_IN_MAGIC_MODELS.slow, messages: MESSAGES, stream: true }, { signal: abort.signal });
    const seen = lastProviderRequest();
    let received = 0;
    // The openai package ends the iteration quietly when its own signal aborts it.
    for await (const _chunk of stream) if (++received === 3) abort.abort();
    expect(received).toBe(3);
    // Three chunks came while the provider was still streaming (it never ends): nothing was buffered on the way.
    await waitFor('the provider to see its request closed', async () => (seen.closedEarly ? true : undefined));
    const call = await waitFor('the cancelled call to be recorded', async () => {
      const newest = await newestCall();
      return newest.requestedModel === STAND_IN_MAGIC_MODELS.slow ? newest : undefined;
    });
    expect(call).toMatchObject({ httpStatus: 200, outcome: 'cancelled', responseId: expect.stringMatching(/^chatcmpl-/) });
    expect(call.responseBody.split('\n\n').length).toBeGreaterThan(3);
    expect(seen.answered.startsWith(call.responseBody)).toBe(true);
  });

  it('records 20 calls made at once, each once, in the one chain the next test walks', async () => {
    const before = (await get('/v1/model-calls?limit=100')).data.length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client()
          .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `call ${i}` }] })
          .withResponse(),
      ),
    );
    const ids = answers.map(({ response }) => response.headers.get('x-model-call-id'));
    const recorded = (await get('/v1/model-calls?limit=100')).data;
    expect(recorded.length).toBe(before + 20);
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(recorded.map((c: { id: string }) => c.id)).toContain(id);
  });

  it("chains the account's calls: each link names the one before, and its hash covers every field", async () => {
    const links = [];
    for (let cursor = ''; ;) {
      const page = await get(`/v1/model-calls?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      links.push(...page.data);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const oldestFirst = links.reverse();
    expect(oldestFirst.map((c) => c.chain.seq)).toEqual(oldestFirst.map((_, i) => String(i + 1)));
    expect(oldestFirst.length).toBeGreaterThanOrEqual(8);
    let prevHash = GENESIS_HASH;
    for (const { chain, usage, ...fields } of oldestFirst) {
      // A proxy call's link has the fields it had before spans were recorded (docs/model-calls.md): the span fields,
      // null on it, and `source` are left out, so that links committed before them still verify.
      for (const key of ['source', ...SPAN_FIELDS]) {
        expect(fields[key]).toBe(key === 'source' ? 'proxy' : null);
        delete fields[key];
      }
      const link = { ...fields, ...usage, seq: BigInt(chain.seq) };
      expect(chain.prevHash).toBe(prevHash);
      expect(chain.hash).toBe(chainHash(prevHash, canonicalJson(link)));
      prevHash = chain.hash;
    }
  });
});
