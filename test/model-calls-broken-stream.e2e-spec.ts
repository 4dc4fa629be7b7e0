import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

// A provider that breaks its answer off (its socket closed mid-event, reset between events, or a stream the agent
// cancels): the record of the call is the bytes the agent got, error event included, and responseSha256 their hash.
const KEY = 'agent-key-for-broken-stream-tests';
const PROVIDER_KEY = 'sk-provider-key-of-a-provider-that-breaks';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const event = (content: string) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-broken', object: 'chat.completion.chunk', model: 'broken-1', choices: [{ index: 0, delta: { content } }] })}\n\n`;
// The first event echoes the provider key, so that what is passed on (and recorded) is masked too.
const EVENTS = [event(`HOLD, says ${PROVIDER_KEY}`), event(' and then'), event(' more')];
const PARTIAL = EVENTS[2].slice(0, EVENTS[2].indexOf(' more') + 3); // cut inside its content: `" mo`

/** What the agent's raw client has received so far, in the test running now: the provider paces itself by it. */
let agentBytes = Buffer.alloc(0);
const agentHas = (what: string) =>
  waitFor(`the agent to receive ${JSON.stringify(what.slice(0, 30))}`, async () => (agentBytes.includes(what) ? true : undefined));
const masked = (text: string) => text.replaceAll(PROVIDER_KEY, '[provider key]');

/** Answers by the request's model, and never ends an answer whole. */
function breakingProvider(): Server {
  return createServer((req, res) => {
    void (async () => {
      const { model } = JSON.parse(await text(req)) as { model: string };
      if (model === 'breaks-whole') {
        // Half a JSON answer, then the connection closes: the agent gets the gateway's 502, not these bytes.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
        return void res.write('{"id":"chatcmpl-broken","choices":[', () => res.socket!.destroy());
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (model === 'resets-between-events') {
        res.write(EVENTS[0] + EVENTS[1]);
        await agentHas(masked(EVENTS[1]));
        return void res.socket!.resetAndDestroy();
      }
      // One write: the gateway reads the unfinished event with the first, which it passes on and the agent gets.
      res.write(EVENTS[0] + EVENTS[1] + PARTIAL);
      await agentHas(EVENTS[1]);
      if (model === 'breaks-mid-event') res.socket!.destroy(); // after what was written: the gateway reads it all
      // stalls-mid-event: the rest never comes, until the agent cancels
    })().catch(() => res.destroy());
  });
}

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const piece of req) chunks.push(piece as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('a provider that breaks its answer off: the record is the bytes the agent got, and their hash', () => {
  const provider = breakingProvider();
  const env: Record<string, string> = { AGENT_API_KEY: KEY, LLM_UPSTREAM_KEY: PROVIDER_KEY };
  beforeAll(async () => {
    await once(provider.listen(0, '127.0.0.1'), 'listening');
    env.LLM_UPSTREAM_URL = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    provider.closeAllConnections();
    provider.close();
  });
  const suite = gatewaySuite(env, { worker: false });
  beforeEach(() => (agentBytes = Buffer.alloc(0)));

  /** A chat call as a raw HTTP client makes it: every byte of the answer as it came, into agentBytes; `cancel` ends it early. */
  const agentCall = (model: string, cancel?: () => boolean): Promise<{ status: number; callId: string; bytes: Buffer }> =>
    new Promise((resolve, reject) => {
      const { hostname, port } = new URL(suite.harness.apiUrl);
      const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Long or short?' }], stream: model !== 'breaks-whole' });
      const req = httpRequest(
        {
          hostname,
          port,
          method: 'POST',
          path: '/llm/openai/v1/chat/completions',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        },
        (res) => {
          const done = () => resolve({ status: res.statusCode!, callId: String(res.headers['x-model-call-id']), bytes: agentBytes });
          res.on('data', (chunk: Buffer) => {
            agentBytes = Buffer.concat([agentBytes, chunk]);
            if (cancel?.()) {
              req.destroy();
              done();
            }
          });
          res.on('end', done);
          res.on('error', () => {}); // a cancelled answer's read ends in an error, as expected
        },
      );
      req.on('error', (error) => (req.destroyed && cancel ? undefined : reject(error)));
      req.end(body);
    });
  const get = async (path: string): Promise<any> => (await fetch(`${suite.harness.apiUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
  const recorded = (id: string) => get(`/v1/model-calls/${id}`);
  /** The JSON data of the answer's last event, when that is an error event. */
  const errorEventOf = (bytes: Buffer) => {
    const last = bytes.toString('utf8').trimEnd().split('\n\n').at(-1)!;
    return last.startsWith('event: error\n') ? JSON.parse(last.slice(last.indexOf('data: ') + 6)) : undefined;
  };

  it('records the events passed on and the error event that ended them, not the unfinished event, when the socket closes mid-event', async () => {
    const { status, callId, bytes } = await agentCall('breaks-mid-event');
    expect(status).toBe(200);
    const text = bytes.toString('utf8');
    expect(text.startsWith(masked(EVENTS[0]) + EVENTS[1])).toBe(true);
    expect(text).not.toContain(PARTIAL);
    expect(errorEventOf(bytes)).toMatchObject({ code: 'LLM_UPSTREAM_UNREACHABLE', message: 'the model provider broke off its answer' });
    const call = await recorded(callId); // at once: the error event, like [DONE], waits for the commit
    expect(call).toMatchObject({ outcome: 'failed', httpStatus: 200, error: 'the model provider broke off its answer', responseEncoding: 'utf8' });
    expect(call.responseBody).toBe(text);
    expect(call.responseSha256).toBe(sha256(bytes));
    expect(call.responseBody).not.toContain(PROVIDER_KEY);
  });

  it('records the error event too when the connection is reset between events', async () => {
    const { callId, bytes } = await agentCall('resets-between-events');
    expect(bytes.toString('utf8').startsWith(masked(EVENTS[0]) + EVENTS[1])).toBe(true);
    expect(errorEventOf(bytes)).toMatchObject({ code: 'LLM_UPSTREAM_UNREACHABLE' });
    const call = await recorded(callId);
    expect([call.outcome, call.responseBody, call.responseSha256]).toEqual(['failed', bytes.toString('utf8'), sha256(bytes)]);
  });

  it('records what was passed on until the agent cancelled, not the unfinished event the gateway held', async () => {
    const { callId, bytes } = await agentCall('stalls-mid-event', () => agentBytes.includes(EVENTS[1]));
    expect(bytes.toString('utf8')).toBe(masked(EVENTS[0]) + EVENTS[1]); // nothing of the unfinished event came
    const call = await waitFor('the cancelled call to be recorded', async () => {
      const found = await recorded(callId);
      return found.outcome === 'cancelled' ? found : undefined;
    });
    expect([call.responseBody, call.responseSha256]).toEqual([bytes.toString('utf8'), sha256(bytes)]);
  });

  it("records no answer bytes when a whole answer breaks off: the agent got the gateway's 502 instead", async () => {
    const { status, bytes } = await agentCall('breaks-whole');
    const answer = JSON.parse(bytes.toString('utf8'));
    expect([status, answer.code]).toEqual([502, 'LLM_UPSTREAM_UNREACHABLE']);
    // An ErrorBody names no call (no x-model-call-id): the newest is this one.
    const call = await recorded((await get('/v1/model-calls?limit=1')).data[0].id);
    expect(call).toMatchObject({ requestedModel: 'breaks-whole', outcome: 'failed', httpStatus: 200, error: answer.message, responseBody: '' });
    expect(call.responseSha256).toBe(sha256(Buffer.alloc(0)));
  });
});
