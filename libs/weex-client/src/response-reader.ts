import { readEnvelope } from './envelope.js';
import type { HttpAnswer } from './http-send.js';
import { classify } from './error-codes.js';
import { OPERATIONS, type OperationName } from './operations.js';
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
export function readResponse(operation: string, { status, headers, text }: HttpAnswer): WeexResponse {
  const simulator = headers['x-weex-simulator'] !== undefined;
  const ok = status >= 200 && status < 300;
  let envelope;
  try {
    envelope = readEnvelope(text);
  } catch {
    // e.g. the 521 HTML page of the IP allowlist, or a proxy's error page. A 2xx page to a write says nothing of
    // whether the write took effect.
    const write = OPERATIONS[operation as OperationName]?.write ?? false;
    const kind = status === 429 ? 'rate_limited' : ok && write ? 'uncertain' : status >= 500 || ok ? 'unavailable' : classify(status, undefined);
    throw new WeexApiError(kind, operation, `HTTP ${status} with a body that is not JSON`, { httpStatus: status, simulator });
  }
  if (!ok || !envelope.ok) {
    const message = `${envelope.msg ?? `HTTP ${status}`}${envelope.code ? ` (code ${envelope.code})` : ''}`;
    throw new WeexApiError(classify(status, envelope.code), operation, message, {
      httpStatus: status,
      code: envelope.code,
      simulator,
    });
  }
  return { httpStatus: status, data: envelope.data, code: envelope.code, msg: envelope.msg, simulator };
}
