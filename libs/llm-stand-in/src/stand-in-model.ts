import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chatCompletion,
  chatCompletionChunks,
  openAiError,
  response,
  responseEvents,
  slowChunk,
  STAND_IN_MODEL,
  type StandInPrompt,
} from './stand-in-answers.js';

/**
 * Models that make the stand-in misbehave on purpose, as a provider may: the tests use them, and a sandbox user can
 * see what the gateway does then.
 */
export const STAND_IN_MAGIC_MODELS = {
  /** 429 with Retry-After: 7, as OpenAI answers a rate limit. */
  rateLimited: 'stand-in-error-429',
  /** 400 invalid_request_error. */
  invalid: 'stand-in-error-400',
  /** Never finishes: a stream sends a chunk every 50 ms, an answer without stream never comes. */
  slow: 'stand-in-slow',
} as const;

const SLOW_CHUNK_MS = 50;
const BODY_LIMIT = 64 * 1024 * 1024;

/** One request the stand-in received. */
export interface StandInRequest {
  method: string;
  /** The path below the base URL, with the query: `/chat/completions`. */
  path: string;
  authorization: string | undefined;
  body: string;
  /** What the stand-in answered (the body's text; a stream's events so far). */
  answered: string;
  /** True once the client closed the connection before the answer ended (a cancelled call). */
  closedEarly: boolean;
}

export interface RunningStandInModel {
  /** The base URL to give an OpenAI client or LLM_UPSTREAM_URL: `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** Every request, in the order they came. */
  requests: StandInRequest[];
  close(): Promise<void>;
}

/**
 * A deterministic, OpenAI-compatible model on 127.0.0.1: `POST /v1/chat/completions` and `POST /v1/responses`, with
 * and without `stream: true`, and `GET /v1/models`. It answers what the sandbox's model calls get when no provider is
 * configured, and what the tests call "the provider". Any bearer key is accepted (and kept in `requests`).
 */
export async function startStandInModel(options: { port?: number; host?: string } = {}): Promise<RunningStandInModel> {
  const requests: StandInRequest[] = [];
  const server = createServer((req, res) => {
    void handle(req, res, requests).catch(() => res.destroy());
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, requests: StandInRequest[]): Promise<void> {
  const body = await readBody(req);
  const path = (req.url ?? '/').replace(/^\/v1/, '');
  const seen: StandInRequest = { method: req.method ?? 'GET', path, authorization: req.headers.authorization, body, answered: '', closedEarly: false };
  requests.push(seen);
  res.once('close', () => (seen.closedEarly = !res.writableFinished));
  const route = `${seen.method} ${path.split('?')[0]}`;
  if (route === 'GET /models')
    return json(seen, res, 200, { object: 'list', data: [{ id: STAND_IN_MODEL, object: 'model', created: 0, owned_by: 'stand-in' }] });
  if (route !== 'POST /chat/completions' && route !== 'POST /responses') {
    return json(seen, res, 404, openAiError(`Unknown request URL: ${seen.method} /v1${path}`, 'invalid_request_error', 'unknown_url'));
  }
  let request: Record<string, unknown>;
  try {
    request = JSON.parse(body) as Record<string, unknown>;
    if (typeof request !== 'object' || request === null) throw new Error('not an object');
  } catch {
    return json(seen, res, 400, openAiError('We could not parse the JSON body of your request.', 'invalid_request_error', null));
  }
  const model = request.model;
  if (typeof model !== 'string' || model === '')
    return json(seen, res, 400, openAiError('you must provide a model parameter', 'invalid_request_error', null, 'model'));
  if (model === STAND_IN_MAGIC_MODELS.rateLimited) {
    res.setHeader('retry-after', '7');
    return json(seen, res, 429, openAiError(`Rate limit reached for ${model}: please try again in 7s.`, 'requests', 'rate_limit_exceeded'));
  }
  if (model === STAND_IN_MAGIC_MODELS.invalid) {
    return json(seen, res, 400, openAiError(`The model \`${model}\` refuses every request.`, 'invalid_request_error', 'invalid_value', 'model'));
  }
  const prompt: StandInPrompt = {
    body,
    texts: textsOf(request),
    includeUsage: (request.stream_options as { include_usage?: unknown })?.include_usage === true,
  };
  const stream = request.stream === true;
  if (model === STAND_IN_MAGIC_MODELS.slow) return stream ? slowStream(seen, res, prompt) : undefined; // the answer never comes
  if (route === 'POST /responses') {
    if (!stream) return json(seen, res, 200, response(prompt));
    return sse(
      seen,
      res,
      responseEvents(prompt).map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
    );
  }
  if (!stream) return json(seen, res, 200, chatCompletion(prompt));
  return sse(seen, res, [...chatCompletionChunks(prompt).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), 'data: [DONE]\n\n']);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) req.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

/** Every string the prompt holds: chat messages' content (text or parts), the Responses API's input and instructions. */
function textsOf(request: Record<string, unknown>): string[] {
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') {
      const { content, text, input } = value as Record<string, unknown>;
      [content, text, input].forEach(collect);
    }
  };
  [request.instructions, request.messages, request.input].forEach(collect);
  return texts;
}

function json(seen: StandInRequest, res: ServerResponse, status: number, body: object): void {
  seen.answered = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' }).end(seen.answered);
}

/** Each event in a write of its own, a turn of the event loop apart, so that they travel as separate chunks. */
async function sse(seen: StandInRequest, res: ServerResponse, events: string[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const event of events) {
    if (res.destroyed) return;
    seen.answered += event;
    res.write(event);
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

function slowStream(seen: StandInRequest, res: ServerResponse, prompt: StandInPrompt): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  let n = 0;
  const timer = setInterval(() => {
    const event = `data: ${JSON.stringify(slowChunk(prompt, n++))}\n\n`;
    seen.answered += event;
    res.write(event);
  }, SLOW_CHUNK_MS);
  res.once('close', () => clearInterval(timer));
}
