import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import pg from 'pg';
import { type ApiProcess, apiProcessSuite } from './support/api-process.js';

// A provider that echoes the key it was called with (as some say "Incorrect API key provided: sk-..."): the agent
// gets "[provider key]" in its place, in a whole answer, a stream and a header, and so does the record; the API's
// log never holds the key either.
const KEY = 'agent-key-for-provider-key-masking';
const PROVIDER_KEY = 'sk-proj-echoed-0123456789abcdefABCDEF';
const MASK = '[provider key]';
const MESSAGES = [{ role: 'user' as const, content: 'Long or short?' }];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-echo', object: 'chat.completion.chunk', created: 0, model: 'echo-1', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

/** Answers by the request's model: `wrong-key` a 401 naming the key, a stream with the key cut across two writes, or a gzipped answer. */
function echoingProvider(): Server {
  return createServer((req, res) => {
    void (async () => {
      const { model, stream } = JSON.parse(await text(req)) as { model: string; stream?: boolean };
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (model === 'wrong-key') {
        const message = `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`;
        const error = { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
        return void res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': `req_${key}` }).end(JSON.stringify(error));
      }
      if (stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const events = `${chunk(`your key is ${key}, and again: ${key}`)}${chunk('.')}data: [DONE]\n\n`;
        const cut = events.indexOf(key) + 5;
        res.write(events.slice(0, cut));
        await sleep(50); // the provider's pace: the two halves of the key come as two chunks
        return void res.end(events.slice(cut));
      }
      const answer = {
        id: 'chatcmpl-echo',
        object: 'chat.completion',
        created: 0,
        model: 'echo-1',
        choices: [{ index: 0, message: { role: 'assistant', content: `key: ${key}` }, finish_reason: 'stop' }],
      };
      // Compressed although the gateway asked for identity: it decodes before it masks.
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify(answer)));
    })().catch(() => res.destroy());
  });
}

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const piece of req) chunks.push(piece as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('a provider that echoes its key: the agent, the record and the log get "[provider key]" instead', () => {
  const provider = echoingProvider();
  let db: pg.Client;
  afterAll(async () => {
    await db?.end();
    provider.close();
  });
  const suite = apiProcessSuite();
  let api: ApiProcess;
  beforeAll(async () => {
    await once(provider.listen(0, '127.0.0.1'), 'listening');
    const url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
    api = await suite.start({ AGENT_API_KEY: KEY, LLM_UPSTREAM_URL: url, LLM_UPSTREAM_KEY: PROVIDER_KEY, LOG_LEVEL: 'debug' });
    db = new pg.Client({ connectionString: suite.env.DATABASE_URL });
    await db.connect();
  }, 60_000);

  const client = () => new OpenAI({ baseURL: `${api.url}/llm/openai/v1`, apiKey: KEY, maxRetries: 0 });
  const raw = async (body: object) => {
    const res = await fetch(`${api.url}/llm/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const recorded = async (id: string) => {
    const res = await fetch(`${api.url}/v1/model-calls/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = await res.text();
    expect(body).not.toContain(PROVIDER_KEY);
    return JSON.parse(body);
  };

  it('masks the key in a 401 and its headers, for the openai client and in the record, hashed as the agent got it', async () => {
    const error = await client()
      .chat.completions.create({ model: 'wrong-key', messages: MESSAGES })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    const { status, message, headers } = error as InstanceType<typeof OpenAI.AuthenticationError>;
    expect([status, message]).toEqual([401, expect.stringContaining(`Incorrect API key provided: ${MASK}. You can find`)]);
    expect(headers.get('x-upstream-request-id')).toBe(`req_${MASK}`);

    const { res, bytes } = await raw({ model: 'wrong-key', messages: MESSAGES });
    expect(bytes.toString()).not.toContain(PROVIDER_KEY);
    const call = await recorded(res.headers.get('x-model-call-id')!);
    expect(call).toMatchObject({ httpStatus: 401, outcome: 'answered', responseBody: bytes.toString(), responseSha256: sha256(bytes) });
  });

  it('masks the key cut across a stream’s chunks, and in an answer the provider gzipped', async () => {
    const stream = await client().chat.completions.create({ model: 'echo', messages: MESSAGES, stream: true });
    let content = '';
    for await (const part of stream) content += part.choices[0]?.delta.content ?? '';
    expect(content).toBe(`your key is ${MASK}, and again: ${MASK}.`);
    const { data, response } = await client().chat.completions.create({ model: 'echo', messages: MESSAGES }).withResponse();
    expect(data.choices[0].message.content).toBe(`key: ${MASK}`);
    expect(response.headers.get('content-encoding')).toBeNull();

    const { res, bytes } = await raw({ model: 'echo', messages: MESSAGES, stream: true });
    expect(bytes.toString()).toContain(`your key is ${MASK}, and again: ${MASK}`);
    const call = await recorded(res.headers.get('x-model-call-id')!);
    expect(call).toMatchObject({ outcome: 'answered', answeredModel: 'echo-1', responseBody: bytes.toString(), responseSha256: sha256(bytes) });
  });

  it('has stored the key nowhere, and logged it nowhere', async () => {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM model_calls WHERE strpos(response_body, $1) > 0 OR strpos(request_body, $1) > 0`, [
      PROVIDER_KEY,
    ]);
    const masked = await db.query(`SELECT count(*)::int AS n FROM model_calls WHERE strpos(response_body, $1) > 0`, [MASK]);
    expect([rows[0].n, masked.rows[0].n]).toEqual([0, 5]);
    expect(api.log).toContain('/llm/openai/v1/chat/completions'); // the log was written, at debug level
    expect(api.log).not.toContain(PROVIDER_KEY);
  });
});
