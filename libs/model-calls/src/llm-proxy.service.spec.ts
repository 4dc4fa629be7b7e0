import { Logger } from '@nestjs/common';
import Fastify, { type FastifyInstance } from 'fastify';
import type { GatewayConfig } from '#libs/config';
import { disconnectSignal } from '#libs/http';
import { type RunningStandInModel, startStandInModel } from '#libs/llm-stand-in';
import { LlmProxyService } from './llm-proxy.service.js';
import type { LlmUpstreams } from './llm-upstreams.js';
import type { ModelCallsRepository, NewModelCall } from './model-calls.repository.js';

const AGENT = { agentKeyId: 'key-1', accountId: 'default', scopes: ['logs:write' as const], rateLimitPerMin: null };
const CHAT = (stream: boolean) => JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'long or short?' }], stream });

/** A commit the test lets finish (or fail) when it chooses. */
function heldCommit() {
  let release!: (ok: boolean) => void;
  const calls: NewModelCall[] = [];
  const done = new Promise<boolean>((resolve) => (release = resolve));
  const append = async (call: NewModelCall) => {
    calls.push(call);
    if (!(await done)) throw new Error('the database is gone');
  };
  return { calls, release, append };
}

describe('LlmProxyService: the record commits before the answer ends', () => {
  let provider: RunningStandInModel;
  let app: FastifyInstance;
  let commit: ReturnType<typeof heldCommit>;
  beforeAll(async () => {
    Logger.overrideLogger(false); // the failed commit's error is expected here
    provider = await startStandInModel();
    const upstreams = { resolve: async () => ({ baseUrl: provider.url, apiKey: 'provider-key' }) } as unknown as LlmUpstreams;
    const calls = { append: (call: NewModelCall) => commit.append(call) } as unknown as ModelCallsRepository;
    const proxy = new LlmProxyService({ llmUpstreamTimeoutMs: 10_000, llmAnswerLimitBytes: 16_777_216 } as GatewayConfig, upstreams, calls);
    app = Fastify();
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    app.post('/*', (request, reply) =>
      proxy.forward({ method: 'POST', path: request.url, headers: request.headers, body: request.body as Buffer }, AGENT, reply, disconnectSignal(reply.raw)),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  beforeEach(() => (commit = heldCommit()));
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  const post = (stream: boolean) =>
    fetch(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: CHAT(stream),
    });
  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('sends a whole answer only once its record has committed', async () => {
    let answered = false;
    const res = post(false).then((r) => ((answered = true), r));
    await until(() => commit.calls.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    commit.release(true);
    expect(await (await res).text()).toBe(provider.requests.at(-1)!.answered);
  });

  it('passes a stream on at once, but its [DONE] only once the record has committed', async () => {
    const reader = (await post(true)).body!.getReader();
    let text = '';
    await until(() => commit.calls.length === 1);
    const seen = provider.requests.at(-1)!;
    expect(seen.answered.endsWith('data: [DONE]\n\n')).toBe(true); // the provider is done; the agent waits for the commit
    while (!text.includes('"finish_reason":"stop"')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).not.toContain('[DONE]');
    commit.release(true);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    expect(text).toBe(seen.answered);
    expect(commit.calls[0]).toMatchObject({ outcome: 'answered', responseBody: seen.answered });
  });

  it('ends a stream with an error event instead of [DONE] when its record cannot be committed', async () => {
    const res = post(true);
    await until(() => commit.calls.length === 1);
    commit.release(false);
    const text = await (await res).text();
    expect(text).not.toContain('[DONE]');
    expect(text).toMatch(/event: error\ndata: \{"type":"error","code":"MODEL_CALL_NOT_RECORDED",.*\}\n\n$/);
  });
});
