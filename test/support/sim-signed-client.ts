import { parseJson, stringifyJson } from '#libs/common';
import { sign } from '#libs/weex-client';

export interface SimCaller {
  apiKey: string;
  secret: string;
  passphrase: string;
}

export interface SimAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
}

export const UPLOAD_V3 = '/capi/v3/order/uploadAiLog';
export const UPLOAD_V2 = '/capi/v2/order/uploadAiLog';

/** A valid uploadAiLog body; overrides replace or add fields. */
export function aiLogBody(overrides: Record<string, unknown> = {}): string {
  const base = { orderId: 737185556881998184n, stage: 'Decision Making', model: 'gpt-test-1' };
  const io = { input: { prompt: 'BTC?' }, output: { signal: 'BUY' } };
  return stringifyJson({ ...base, ...io, explanation: 'Momentum is up.', ...overrides });
}

/** Signs and sends requests to one simulator, the way the gateway's client does (text signed is text sent). */
export class SimSignedClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timestamp: () => number,
  ) {}

  /** A signed POST; `ip` sets the simulator-only X-Sim-Client-Ip header. */
  post(path: string, body: string, caller: SimCaller, opts: { ip?: string; signal?: AbortSignal } = {}) {
    const timestamp = String(this.timestamp());
    const headers: Record<string, string> = {
      'ACCESS-KEY': caller.apiKey,
      'ACCESS-SIGN': sign(caller.secret, { timestamp, method: 'POST', requestPath: path, body }),
      'ACCESS-PASSPHRASE': caller.passphrase,
      'ACCESS-TIMESTAMP': timestamp,
      'content-type': 'application/json',
      ...(opts.ip ? { 'X-Sim-Client-Ip': opts.ip } : {}),
    };
    return this.send(path, { method: 'POST', headers, body, signal: opts.signal });
  }

  /** A simulator control call (`/__sim/...`) with an optional JSON body. */
  control(method: 'GET' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<SimAnswer> {
    const init: RequestInit = { method };
    if (body !== undefined) {
      Object.assign(init, { headers: { 'content-type': 'application/json' }, body: stringifyJson(body) });
    }
    return this.send(path, init);
  }

  async send(path: string, init: RequestInit = {}): Promise<SimAnswer> {
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    const isJson = res.headers.get('content-type')?.startsWith('application/json') ?? false;
    return { status: res.status, headers: res.headers, text, json: isJson ? parseJson(text) : undefined };
  }
}
