import { readEnvelope } from './envelope.js';
import { classify } from './error-codes.js';
import { WeexApiError } from './weex-api.error.js';

export interface WeexResponse {
  httpStatus: number;
  /** The payload, every number a LosslessNumber with the exact text sent (see {@link readEnvelope}). */
  data: unknown;
  code?: string;
  msg?: string;
  /** True when the local simulator answered (it marks every answer with X-Weex-Simulator). */
  simulator: boolean;
}

/** Turns an HTTP answer into a response, or into a classified WeexApiError when it is not a success. */
export function readResponse(operation: string, res: Response, text: string): WeexResponse {
  const simulator = res.headers.has('x-weex-simulator');
  let envelope;
  try {
    envelope = readEnvelope(text);
  } catch {
    // e.g. the 521 HTML page of the IP allowlist, or a proxy's error page.
    const kind = res.status === 429 ? 'rate_limited' : res.status >= 500 || res.ok ? 'unavailable' : classify(res.status, undefined);
    throw new WeexApiError(kind, operation, `HTTP ${res.status} with a body that is not JSON`, { httpStatus: res.status, simulator });
  }
  if (!res.ok || !envelope.ok) {
    const message = `${envelope.msg ?? `HTTP ${res.status}`}${envelope.code ? ` (code ${envelope.code})` : ''}`;
    throw new WeexApiError(classify(res.status, envelope.code), operation, message, {
      httpStatus: res.status,
      code: envelope.code,
      simulator,
    });
  }
  return { httpStatus: res.status, data: envelope.data, code: envelope.code, msg: envelope.msg, simulator };
}
