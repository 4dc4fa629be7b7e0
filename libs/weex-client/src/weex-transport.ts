import { TIMESTAMP_CODES } from './error-codes.js';
import { httpSend, HttpSendError, type HttpAnswer } from './http-send.js';
import type { WeexHost } from './operations.js';
import { readResponse, type WeexResponse } from './response-reader.js';
import { sign } from './signing.js';
import { WeexApiError } from './weex-api.error.js';

export interface WeexCredentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

export interface WeexTransportOptions {
  /** Contract REST base URL, e.g. `https://api-contract.weex.com`. */
  baseUrl: string;
  /** Spot REST base URL, for the operations on the spot host; default `baseUrl`. */
  spotBaseUrl?: string;
  credentials: WeexCredentials;
  /** Per-request timeout in ms; default 10 000. */
  timeoutMs?: number;
  /** The path that answers `{serverTime}`, for measuring the clock offset. */
  serverTimePath?: string;
  now?: () => number;
}

export interface WeexRequest {
  operation: string;
  method: 'GET' | 'POST';
  path: string;
  query?: string;
  /** The exact JSON text to send and sign. */
  body?: string;
  signed: boolean;
  /** Default `contract`. */
  host?: WeexHost;
  /** Aborts the request as well as the timeout does. */
  signal?: AbortSignal;
}

// Failures where nothing reached the server, so the request certainly had no effect.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'CONNECT_TIMEOUT', 'EHOSTUNREACH']);

/** Owns transport concerns: signing each attempt afresh, the clock offset to the exchange, timeouts and envelopes. */
export class WeexTransport {
  private offsetMs?: number;
  private syncing?: Promise<number>;
  private readonly now: () => number;

  // A private field: inspecting or logging the transport (or a client holding it) never shows the credentials.
  readonly #credentials: WeexCredentials;
  private readonly options: Omit<WeexTransportOptions, 'credentials'>;

  constructor({ credentials, ...options }: WeexTransportOptions) {
    this.#credentials = credentials;
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  /** The contract host this transport sends to. */
  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Last measured `serverTime - localTime`, in ms; undefined before the first sync. */
  get clockOffsetMs(): number | undefined {
    return this.offsetMs;
  }

  /** The exchange's time as this process estimates it: local time plus the last measured offset. */
  serverNow(): number {
    return this.now() + (this.offsetMs ?? 0);
  }

  /** Measures the clock offset against the server time endpoint; concurrent callers share one measurement. */
  syncClock(): Promise<number> {
    this.syncing ??= this.measureOffset().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private async measureOffset(): Promise<number> {
    const path = this.options.serverTimePath ?? '/capi/v3/market/time';
    const started = this.now();
    const res = await this.send({ operation: 'serverTime', method: 'GET', path, signed: false });
    const serverTime = Number((res.data as { serverTime?: unknown })?.serverTime ?? res.data);
    // The server read its clock about halfway through the round trip.
    this.offsetMs = serverTime - Math.round((started + this.now()) / 2);
    return this.offsetMs;
  }

  /**
   * Sends one request; a timestamp rejection is answered by one clock resync and one re-signed retry. A rejection that
   * survives the resync is a clock problem (this host's clock jumping, or the exchange's nodes disagreeing), not bad
   * credentials: it is `transient`, so that callers retry with backoff, and says the offset it was signed with.
   */
  async request(req: WeexRequest): Promise<WeexResponse> {
    if (req.signed && this.offsetMs === undefined) await this.syncClock();
    try {
      return await this.send(req);
    } catch (error) {
      if (!isTimestampRejection(error, req)) throw error;
      await this.syncClock();
      try {
        return await this.send(req);
      } catch (again) {
        if (!isTimestampRejection(again, req)) throw again;
        const message = `${again.message}, again after a clock resync (clock offset ${this.offsetMs} ms): check this host's clock (NTP)`;
        throw new WeexApiError('transient', again.operation, message, { ...again.details, cause: again });
      }
    }
  }

  private async send(req: WeexRequest): Promise<WeexResponse> {
    const base = req.host === 'spot' ? (this.options.spotBaseUrl ?? this.options.baseUrl) : this.options.baseUrl;
    const url = `${base}${req.path}${req.query ? `?${req.query}` : ''}`;
    const headers: Record<string, string> = { 'Content-Type': 'application/json', locale: 'en-US' };
    if (req.signed) Object.assign(headers, this.authHeaders(req));
    let answer: HttpAnswer;
    try {
      answer = await httpSend(url, { method: req.method, headers, body: req.body, timeoutMs: this.options.timeoutMs ?? 10_000, signal: req.signal });
    } catch (cause) {
      if (req.signal?.aborted) throw req.signal.reason;
      if (!(cause instanceof HttpSendError)) throw cause;
      const sent = !NOT_SENT.has(cause.code);
      const what = sent ? 'no answer' : 'could not connect';
      throw new WeexApiError(sent ? 'uncertain' : 'unavailable', req.operation, `${what} (${cause.code}: ${cause.message})`, { cause });
    }
    return readResponse(req.operation, answer);
  }

  private authHeaders(req: WeexRequest): Record<string, string> {
    const { apiKey, secret, passphrase } = this.#credentials;
    const timestamp = String(this.serverNow());
    const signature = sign(secret, {
      timestamp,
      method: req.method,
      requestPath: req.path,
      queryString: req.query,
      body: req.body,
    });
    return {
      'ACCESS-KEY': apiKey,
      'ACCESS-SIGN': signature,
      'ACCESS-PASSPHRASE': passphrase,
      'ACCESS-TIMESTAMP': timestamp,
    };
  }
}

function isTimestampRejection(error: unknown, req: WeexRequest): error is WeexApiError {
  return error instanceof WeexApiError && req.signed && TIMESTAMP_CODES.has(error.code ?? '');
}
