import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';

/** An HTTP answer, its body read as UTF-8 text. */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface HttpSendOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Gives up after this many ms, whatever stage the request is at. */
  timeoutMs: number;
  /** Aborts the request as well as the timeout does: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * A failure to get an answer: `code` is Node's (ECONNREFUSED, ECONNRESET, ...), CONNECT_TIMEOUT when time ran out
 * before a connection was made (nothing was sent), or TIMEOUT when it ran out later.
 */
export class HttpSendError extends Error {
  override readonly name = 'HttpSendError';

  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// Kept-alive connections, as fetch keeps them. The agent's timeout closes an idle one after 4 s, before servers
// commonly close theirs (5 s), so that a request rarely meets a connection the server is closing.
const AGENT_OPTIONS = { keepAlive: true, timeout: 4_000 };
const agents = { 'http:': new http.Agent(AGENT_OPTIONS), 'https:': new https.Agent(AGENT_OPTIONS) };

/**
 * One request over node:http(s) with kept-alive connections. Not fetch: on the query path fetch's WHATWG streams and
 * abort plumbing cost about three times the CPU of node:http (docs/benchmarks.md, scenario 5).
 */
export function httpSend(url: string, options: HttpSendOptions): Promise<HttpAnswer> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  // Before the request exists: destroyed before its 'error' listener, it raised "socket hang up" uncaught.
  if (options.signal?.aborted) return Promise.reject(options.signal.reason);
  return new Promise<HttpAnswer>((resolve, reject) => {
    const headers = options.body === undefined ? options.headers : { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) };
    const req = transport.request(target, { method: options.method, headers, agent: agents[target.protocol as 'http:' | 'https:'] });
    const fail = (error: HttpSendError | unknown) => {
      cleanup();
      reject(error);
    };
    const timer = setTimeout(() => {
      const connecting = !req.socket || req.socket.connecting;
      const error = connecting
        ? new HttpSendError('CONNECT_TIMEOUT', `no connection within ${options.timeoutMs} ms`)
        : new HttpSendError('TIMEOUT', `no answer within ${options.timeoutMs} ms`);
      req.destroy(error);
      fail(error);
    }, options.timeoutMs);
    const onAbort = () => {
      req.destroy();
      fail(options.signal!.reason);
    };
    const cleanup = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // The agent's idle timeout is for free connections only; a request in flight is bounded by the timer above.
    req.on('socket', (socket) => socket.setTimeout(0));
    req.on('error', (error: NodeJS.ErrnoException) => fail(new HttpSendError(error.code ?? 'ERROR', error.message, { cause: error })));
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', (error: NodeJS.ErrnoException) => fail(new HttpSendError(error.code ?? 'ERROR', error.message, { cause: error })));
      res.on('aborted', () => fail(new HttpSendError('ECONNRESET', 'the connection closed before the answer was complete')));
      res.on('end', () => {
        cleanup();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      });
    });
    req.end(options.body);
  });
}
