import { GatewayError } from './errors.js';

/** How long one call may take, retries included, and how its retries are spaced (all in milliseconds). */
export interface RetryPolicy {
  /** No attempt starts after this long from the call's start; the call then throws the last failure. */
  deadlineMs: number;
  /** One attempt's limit, answer body included (AbortSignal.timeout), never beyond the deadline. */
  timeoutMs: number;
  /** The backoff's first ceiling, doubled after each failure that named no wait, up to `maxBackoffMs`. */
  initialBackoffMs: number;
  maxBackoffMs: number;
}

/** The 409 that means "the first request with this Idempotency-Key is still running": the only 409 retried. */
const KEY_IN_USE = 'IDEMPOTENCY_KEY_IN_USE';
/** Answers that say "not now" whatever their body: the gateway's 503s, and a proxy's 502 and 504 in front of it. */
const UNAVAILABLE = new Set([502, 503, 504]);
/** No attempt is started with less time than this left. */
const MIN_ATTEMPT_MS = 100;
/** Statuses whose Response may not carry a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** The largest answer read, in bytes: a proof or a log is far smaller; a hostile proxy's endless body is cut here. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** An HTTP date (IMF-fixdate, RFC 9110), the only date form read: Date.parse alone takes "-5" for a year. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** `Retry-After` in ms from now: delay-seconds or an HTTP date; undefined when absent or unreadable (as the Python client reads it). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = HTTP_DATE.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** How long to wait before sending again after this answer (0: back off), or undefined when it is final. */
async function retryDelay(response: Response): Promise<number | undefined> {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  // A 429 without Retry-After is a batch over the key's whole limit a minute: waiting cannot help.
  if (response.status === 429) return retryAfter;
  if (UNAVAILABLE.has(response.status)) return retryAfter ?? 0;
  if (response.status === 409) {
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    return (body as { code?: unknown } | undefined)?.code === KEY_IN_USE ? (retryAfter ?? 0) : undefined;
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One call's attempts: `fetch` sends the very same request (its body and Idempotency-Key) until an answer is final or
 * the deadline passes, and then returns that answer or throws a GatewayError (`UNREACHABLE`, the network error as its
 * cause). Given to openapi-fetch as its `fetch`, so that the typed client sees one request and one answer.
 */
export class Attempts {
  count = 0;
  /** `POST /v1/ai-logs`: what the errors name (never the URL's host or credentials). */
  what = '';
  /** True when the answer returned is still a transient one (429, 503, a key in flight): the deadline stopped us. */
  exhausted = false;

  readonly #policy: RetryPolicy;
  readonly #fetch: typeof fetch;

  constructor(policy: RetryPolicy, send: typeof fetch = globalThis.fetch) {
    this.#policy = policy;
    this.#fetch = send;
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const end = performance.now() + this.#policy.deadlineMs;
    this.what = `${request.method} ${new URL(request.url).pathname}`;
    let failures = 0;
    for (;;) {
      this.count += 1;
      // Whole milliseconds: AbortSignal.timeout refuses a fraction.
      const timeout = Math.ceil(Math.max(MIN_ATTEMPT_MS, Math.min(this.#policy.timeoutMs, end - performance.now())));
      let wait: number;
      try {
        const response = await this.#send(request.clone(), timeout);
        const delay = await retryDelay(response);
        if (delay === undefined) return response;
        failures += 1;
        // Retry-After plus up to a fifth: agents told the same second do not all come back in it.
        wait = delay > 0 ? delay * (1 + Math.random() / 5) : this.#backoff(failures);
        if (performance.now() + wait + MIN_ATTEMPT_MS > end) {
          this.exhausted = true;
          return response;
        }
      } catch (error) {
        failures += 1;
        wait = this.#backoff(failures);
        if (performance.now() + wait + MIN_ATTEMPT_MS > end) {
          throw GatewayError.unreachable(this.what, this.count, error);
        }
      }
      await sleep(wait);
    }
  };

  /** Exponential backoff with full jitter, so that agents that failed together do not retry together. */
  #backoff(failures: number): number {
    return Math.random() * Math.min(this.#policy.maxBackoffMs, this.#policy.initialBackoffMs * 2 ** Math.min(failures - 1, 30));
  }

  /**
   * One attempt, its answer read whole within `timeoutMs` and `MAX_ANSWER_BYTES`: a connection cut mid-answer, or an
   * answer too long, is a failure to retry too. Redirects are not followed: a gateway never sends one, and following it
   * would send the decision and its Idempotency-Key to another host (the answer is an error instead).
   */
  async #send(request: Request, timeoutMs: number): Promise<Response> {
    const signal = AbortSignal.timeout(timeoutMs);
    const answer = await this.#fetch(request, { signal, redirect: 'manual' });
    const body = NO_BODY.has(answer.status) || !answer.body ? null : await readAtMost(answer.body, MAX_ANSWER_BYTES);
    return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  }
}

/** The whole stream, or an error as soon as it passes `limit` bytes (the rest is not read). */
async function readAtMost(stream: ReadableStream<Uint8Array>, limit: number): Promise<ArrayBuffer> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    length += chunk.length;
    if (length > limit) {
      await stream.cancel().catch(() => undefined);
      throw new Error(`the answer is longer than ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  const whole = new Uint8Array(new ArrayBuffer(length));
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole.buffer;
}
