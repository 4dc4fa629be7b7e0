import createClient, { type Client } from 'openapi-fetch';
import { type Decision, type OrderId, logBody, orderIdText } from './decision.js';
import { type AiLog, BatchRejectedError, GatewayError, UploadWaitError } from './errors.js';
import { Attempts, type RetryPolicy, parseRetryAfter } from './retry.js';
import type { components, paths } from './schema.js';

export type Evidence = components['schemas']['OrderEvidenceDto'];

export interface GatewayOptions {
  /** The gateway, e.g. `http://127.0.0.1:3000` (a path prefix is kept, for a gateway behind a proxy). */
  url: string;
  /** The agent key (`agk_...`): sent only as `Authorization: Bearer`, never shown in an error or an inspection. */
  key: string;
  /** How long one call may take, retries included (30 s). */
  deadlineMs?: number;
  /** How long one attempt may take, its answer included (10 s). */
  timeoutMs?: number;
  /** The longest wait between attempts that no `Retry-After` sets (8 s). */
  maxBackoffMs?: number;
  /** Cut every `explanation` to 1,000 UTF-16 code units instead of letting the gateway refuse it (false). */
  fit?: boolean;
  /** The fetch to send with (globalThis.fetch), e.g. one with a proxy dispatcher. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  deadlineMs?: number;
}

export interface LogOptions extends CallOptions {
  fit?: boolean;
  /** 1 to 255 printable ASCII characters without spaces; a new UUID by default. Every retry sends the same one. */
  idempotencyKey?: string;
}

/** What the gateway allows in a key or an Idempotency-Key: printable ASCII without spaces. */
const TOKEN = /^[\x21-\x7e]{1,255}$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client of one AI-log gateway for one agent key. Calls retry on their own (see README.md) and throw GatewayError. */
export class Gateway {
  readonly url: string;
  readonly #client: Client<paths>;
  readonly #policy: RetryPolicy;
  readonly #fit: boolean;
  readonly #fetch: typeof fetch;

  constructor({ url, key, deadlineMs = 30_000, timeoutMs = 10_000, maxBackoffMs = 8_000, fit = false, fetch = globalThis.fetch }: GatewayOptions) {
    // Trimmed: a key read from a file (DATA_DIR's sandbox-agent-key) ends with a newline.
    key = typeof key === 'string' ? key.trim() : key;
    if (typeof key !== 'string' || !TOKEN.test(key)) throw new TypeError('key must be an agent key: printable ASCII without spaces'); // not echoed
    if (!['http:', 'https:'].includes(protocolOf(url))) throw new TypeError('url must be an absolute http:// or https:// URL');
    this.url = url;
    this.#client = createClient<paths>({ baseUrl: url, headers: { Authorization: `Bearer ${key}` } });
    this.#policy = { deadlineMs, timeoutMs, maxBackoffMs, initialBackoffMs: Math.min(500, maxBackoffMs) };
    this.#fit = fit;
    this.#fetch = fetch;
  }

  /** Posts one decision; resolves to its log's id once the gateway has committed it (its 202). */
  async log(decision: Decision, options: LogOptions = {}): Promise<string> {
    const body = logBody(decision, options.fit ?? this.#fit);
    const header = { 'Idempotency-Key': idempotencyKey(options.idempotencyKey) };
    const { data, attempts } = await this.#call(options, (fetch) => this.#client.POST('/v1/ai-logs', { body, params: { header }, fetch }));
    if (typeof data.id !== 'string') throw GatewayError.badAnswer(attempts, 'the answer carries no log id');
    return data.id;
  }

  /**
   * Posts 1 to 500 decisions in one request; resolves to their ids in order. When the gateway rejected some, throws
   * BatchRejectedError: the others are committed (`ids`), so send only the rejected ones again, fixed.
   */
  async logBatch(decisions: Decision[], options: LogOptions = {}): Promise<string[]> {
    const fit = options.fit ?? this.#fit;
    const body = { logs: decisions.map((decision) => logBody(decision, fit)) };
    const header = { 'Idempotency-Key': idempotencyKey(options.idempotencyKey) };
    const { data, attempts } = await this.#call(options, (fetch) => this.#client.POST('/v1/ai-logs/batch', { body, params: { header }, fetch }));
    if (!Array.isArray(data.results)) throw GatewayError.badAnswer(attempts, 'the answer carries no results');
    const results = [...data.results].sort((a, b) => a.index - b.index);
    const ids = results.map((result) => (result.status === 'rejected' ? null : (result.id ?? null)));
    const errors = results.flatMap((result) => result.errors ?? []);
    if (ids.includes(null)) throw new BatchRejectedError(ids, errors, attempts.count);
    return ids as string[];
  }

  /** The log: its `status` (queued, uploading, uploaded, retrying, failed), its fields as accepted, its upload attempts. */
  async get(id: string, options: CallOptions = {}): Promise<AiLog> {
    return (await this.#call(options, (fetch) => this.#client.GET('/v1/ai-logs/{id}', { params: { path: { id: segment(id) } }, fetch }))).data;
  }

  /** Polls the log until it is uploaded; throws UploadWaitError if it ends `failed` or `timeoutMs` passes first. */
  async waitUploaded(id: string, { timeoutMs = 60_000, pollMs = 1_000 }: { timeoutMs?: number; pollMs?: number } = {}): Promise<AiLog> {
    const end = performance.now() + timeoutMs;
    let interval = Math.min(200, pollMs); // a log is usually uploaded within a second: look soon, then less often
    for (;;) {
      const log = await this.get(id, { deadlineMs: Math.max(500, Math.min(this.#policy.deadlineMs, end - performance.now())) });
      if (log.status === 'uploaded') return log;
      const left = end - performance.now();
      if (log.status === 'failed' || left <= 0) throw new UploadWaitError(log, timeoutMs);
      await sleep(Math.min(interval, left));
      interval = Math.min(pollMs, interval * 2);
    }
  }

  /** The order, its fills, the logs that name it and its `coverage` (scope `exchange:read`). */
  async evidence(orderId: OrderId, options: CallOptions = {}): Promise<Evidence> {
    const path = { orderId: orderIdText(orderId) };
    return (await this.#call(options, (fetch) => this.#client.GET('/v1/orders/{orderId}/evidence', { params: { path }, fetch }))).data;
  }

  /**
   * The log's `c2sp.org/tlog-proof@v1` file. Until a signed checkpoint covers the log the gateway answers 409 with
   * Retry-After (the worker signs one hourly): thrown as a GatewayError with `status` 409, or with `signCheckpoint`
   * a checkpoint is signed now (`POST /v1/audit/checkpoints`, scope `exchange:read`) and the proof read again.
   */
  async proof(id: string, options: CallOptions & { signCheckpoint?: boolean } = {}): Promise<string> {
    const read = async () =>
      (await this.#call(options, (fetch) => this.#client.GET('/v1/ai-logs/{id}/proof', { params: { path: { id: segment(id) } }, parseAs: 'text', fetch })))
        .data;
    try {
      return await read();
    } catch (error) {
      if (!options.signCheckpoint || !(error instanceof GatewayError) || error.status !== 409) throw error;
    }
    await this.#call(options, (fetch) => this.#client.POST('/v1/audit/checkpoints', { fetch }));
    return read();
  }

  /** One call with its retries: resolves to the typed 2xx answer, throws GatewayError for any other. */
  async #call<T extends { data?: unknown; error?: unknown; response: Response }>(
    options: CallOptions,
    send: (fetch: Attempts['fetch']) => Promise<T>,
  ): Promise<{ data: NonNullable<T['data']>; attempts: Attempts }> {
    const attempts = new Attempts({ ...this.#policy, deadlineMs: options.deadlineMs ?? this.#policy.deadlineMs }, this.#fetch);
    let answer: T;
    try {
      answer = await send(attempts.fetch);
    } catch (error) {
      // openapi-fetch's JSON parse of a 2xx that is not JSON (a proxy's page): not the gateway's answer.
      if ((error as Error | undefined)?.name !== 'SyntaxError') throw error; // by name: it may come from another realm
      throw GatewayError.badAnswer(attempts, 'the answer is not the JSON the gateway sends', error);
    }
    const { data, error, response } = answer;
    if (!response.ok) throw GatewayError.fromAnswer(attempts, response, error, parseRetryAfter(response.headers.get('retry-after')));
    if (data === undefined || data === null) throw GatewayError.badAnswer(attempts, `${response.status} with no body`);
    return { data: data as NonNullable<T['data']>, attempts };
  }
}

function idempotencyKey(key: string = crypto.randomUUID()): string {
  if (!TOKEN.test(key)) throw new TypeError(`idempotencyKey must be 1 to 255 printable ASCII characters without spaces, got ${JSON.stringify(key)}`);
  return key;
}

/** A log id as a path segment: `.` and `..` would be resolved away by URL parsing and name another path. */
function segment(id: string): string {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..') throw new TypeError(`not a log id: ${JSON.stringify(id)}`);
  return id;
}

function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}
