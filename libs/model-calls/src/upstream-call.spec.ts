import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { answerHeaders, callUpstream, stopReasonOf } from './upstream-call.js';

const ANSWER = '{"id":"chatcmpl-1","choices":[]}';
const request = (path: string) => ({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"model":"m"}') });
const text = async (body: AsyncIterable<Buffer>) => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

describe('callUpstream: the call to the provider on a kept-alive undici Agent', () => {
  let server: Server;
  let baseUrl: string;
  let dispatcher: Agent;
  /** The provider's answers by path; `/stream` sends one event and holds the rest. */
  const answers: Record<string, (res: ServerResponse) => void> = {
    '/plain': (res) => res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-1', 'set-cookie': ['a=1', 'b=2'] }).end(ANSWER),
    '/gzip': (res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(ANSWER)),
    '/br': (res) => res.writeHead(429, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(brotliCompressSync(ANSWER)),
    '/unknown-coding': (res) => res.writeHead(200, { 'content-encoding': 'zz' }).end('as it came'),
    '/stream': (res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: {}\n\n'),
  };
  const closed: Promise<void>[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      closed.push(once(res, 'close').then(() => undefined));
      req.resume().on('end', () => answers[req.url!.slice('/v1'.length)](res));
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    dispatcher = new Agent();
  });
  afterAll(async () => {
    await dispatcher.destroy();
    server.closeAllConnections();
    server.close();
  });

  it('passes the answer on as it came, the headers an OpenAI client reads, a repeated one joined as fetch joins it', async () => {
    const call = await callUpstream(dispatcher, { baseUrl, apiKey: 'k' }, request('/plain'), new AbortController().signal, 10_000);
    expect(call.status).toBe(200);
    expect(await text(call.body)).toBe(ANSWER);
    expect(answerHeaders(call.headers)).toEqual({ 'content-type': 'application/json', 'x-upstream-request-id': 'req-1' });
    expect(answerHeaders({ 'x-ratelimit-limit-requests': ['1', '2'] })).toEqual({ 'x-ratelimit-limit-requests': '1, 2' });
  });

  it('decodes an answer compressed although it was asked not to be, as fetch did (an error answer too)', async () => {
    const gzip = await callUpstream(dispatcher, { baseUrl, apiKey: 'k' }, request('/gzip'), new AbortController().signal, 10_000);
    expect(await text(gzip.body)).toBe(ANSWER);
    const br = await callUpstream(dispatcher, { baseUrl, apiKey: 'k' }, request('/br'), new AbortController().signal, 10_000);
    expect([br.status, await text(br.body)]).toEqual([429, ANSWER]);
    const unknown = await callUpstream(dispatcher, { baseUrl, apiKey: 'k' }, request('/unknown-coding'), new AbortController().signal, 10_000);
    expect(await text(unknown.body)).toBe('as it came');
  });

  it('closes the connection to the provider when the agent goes away mid-answer, and says so', async () => {
    const agentGone = new AbortController();
    const call = await callUpstream(dispatcher, { baseUrl, apiKey: 'k' }, request('/stream'), agentGone.signal, 10_000);
    const providerSaw = closed.at(-1)!;
    const reading = text(call.body);
    agentGone.abort(new Error('the client closed the connection before the answer'));
    const error = await reading.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(call.whyStopped(error)).toBe('cancelled');
    await providerSaw; // the provider's side of the connection closed
  });

  it('throws the connection error itself, marked unreachable', async () => {
    const refused = await callUpstream(
      dispatcher,
      { baseUrl: 'http://127.0.0.1:1', apiKey: undefined },
      request('/plain'),
      new AbortController().signal,
      10_000,
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    expect(stopReasonOf(refused)).toBe('unreachable');
  });
});
