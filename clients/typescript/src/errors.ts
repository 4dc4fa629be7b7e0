import type { Attempts } from './retry.js';
import type { components } from './schema.js';

export type ErrorBody = components['schemas']['ErrorBody'];
/** One rule a request broke: `path` is the field (`explanation`, `input.a.b.2`, `logs.1.stage`), `message` the rule. */
export type FieldError = components['schemas']['FieldErrorDto'];
export type AiLog = components['schemas']['AiLogDto'];

interface Details {
  status?: number;
  code: string;
  errors?: FieldError[];
  requestId?: string;
  retryAfterMs?: number;
  attempts?: number;
  transient?: boolean;
  body?: ErrorBody;
  cause?: unknown;
}

/**
 * Everything the client throws. An error answer carries the gateway's ErrorBody: `status`, `code`
 * (`VALIDATION_FAILED`, `PAYLOAD_TOO_LARGE`, ...), `errors` and, for the first of them, `field` and `rule`. No answer
 * at all is `code: 'UNREACHABLE'` with `status` undefined and the network error as `cause`. `transient` says the
 * failure was one the client retries (no answer, 429, 503, a key in flight) until its deadline ran out. No message
 * ever holds the agent key: the client never writes it in one, and the gateway never echoes it.
 */
export class GatewayError extends Error {
  readonly status: number | undefined;
  readonly code: string;
  readonly errors: FieldError[];
  readonly field: string | undefined;
  readonly rule: string | undefined;
  readonly requestId: string | undefined;
  /** The answer's `Retry-After`, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;
  readonly transient: boolean;
  readonly body: ErrorBody | undefined;

  constructor(message: string, details: Details) {
    super(message, { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.code = details.code;
    this.errors = details.errors ?? [];
    this.field = this.errors[0]?.path;
    this.rule = this.errors[0]?.message;
    this.requestId = details.requestId;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts ?? 1;
    this.transient = details.transient ?? false;
    this.body = details.body;
  }

  /** The error for an error answer; `body` is the gateway's ErrorBody, or whatever another server answered. */
  static fromAnswer(attempts: Attempts, response: Response, body: unknown, retryAfterMs: number | undefined): GatewayError {
    const error = isErrorBody(body) ? body : undefined;
    const code = error?.code ?? `HTTP_${response.status}`;
    // Another server's page (a proxy's) is left out: it might echo the request's headers, the key among them.
    const text = error?.message ?? (response.statusText || 'not an answer of the gateway');
    const errors = error?.errors ?? [];
    const fields = errors.length > 0 ? ` (${errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')})` : '';
    const tries = attempts.count > 1 ? ` after ${attempts.count} attempts` : '';
    const request = error?.requestId ? ` [request ${error.requestId}]` : '';
    return new GatewayError(`${attempts.what}: ${response.status} ${code}: ${text}${fields}${tries}${request}`, {
      status: response.status,
      code,
      errors,
      requestId: error?.requestId,
      retryAfterMs,
      attempts: attempts.count,
      transient: attempts.exhausted,
      body: error,
    });
  }

  /** A 2xx that is not what the gateway answers (a proxy's page, a body cut short): its text is left out, as above. */
  static badAnswer(attempts: Attempts, why: string, cause?: unknown): GatewayError {
    return new GatewayError(`${attempts.what}: ${why}, so it is not the gateway's`, { code: 'BAD_ANSWER', attempts: attempts.count, cause });
  }

  /** No answer by the deadline: refused, reset, timed out or cut mid-answer (the last of these is the cause). */
  static unreachable(what: string, attempts: number, cause: unknown): GatewayError {
    // undici's "fetch failed" says nothing; its cause says "connect ECONNREFUSED 127.0.0.1:3000". Not instanceof:
    // fetch's errors may come from another realm (a vm context, jest).
    const error = cause as { message?: string; cause?: { message?: string; code?: string } } | undefined;
    const why = error?.cause?.message || error?.cause?.code || error?.message || String(cause); // AggregateError: no message
    return new GatewayError(`${what}: no answer from the gateway (${why}) after ${attempts} attempt(s)`, {
      code: 'UNREACHABLE',
      attempts,
      transient: true,
      cause,
    });
  }
}

/** `logBatch`: the gateway committed some logs of the batch and rejected others. Do not send the committed ones again. */
export class BatchRejectedError extends GatewayError {
  /** One entry per log of the batch, in order: its id when committed, null when rejected. */
  readonly ids: (string | null)[];

  constructor(ids: (string | null)[], errors: FieldError[], attempts: number) {
    const committed = ids.filter((id) => id !== null).length;
    const rules = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
    super(`POST /v1/ai-logs/batch: ${ids.length - committed} of ${ids.length} logs rejected, ${committed} committed (${rules})`, {
      status: 207,
      code: 'BATCH_PARTLY_REJECTED',
      errors,
      attempts,
    });
    this.ids = ids;
  }
}

/** `waitUploaded`: the log ended `failed` (`code: 'UPLOAD_FAILED'`) or was not uploaded in time (`'WAIT_TIMEOUT'`). */
export class UploadWaitError extends GatewayError {
  /** The log as last read: its status, `lastError` and attempts. */
  readonly log: AiLog;

  constructor(log: AiLog, timeoutMs: number) {
    const failed = log.status === 'failed';
    super(failed ? `AI log ${log.id} failed: ${log.lastError}` : `AI log ${log.id} still ${log.status} after ${timeoutMs} ms`, {
      code: failed ? 'UPLOAD_FAILED' : 'WAIT_TIMEOUT',
    });
    this.log = log;
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as ErrorBody).code === 'string';
}
