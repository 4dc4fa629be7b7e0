import { parse } from 'lossless-json';
import { isSuccessCode } from './error-codes.js';

export interface Envelope {
  /** The payload: `data` of a wrapped answer, or the whole body of a raw v3 answer. */
  data: unknown;
  /** Present when the answer was wrapped or was an error object. */
  code?: string;
  msg?: string;
  ok: boolean;
}

/**
 * Reads any answer WEEX gives: a raw v3 object or array, a v3 `{code, msg}` error, or a v2
 * `{code, msg, requestTime, data}` envelope. Every number stays a LosslessNumber holding the exact text sent, so
 * normalisers decide per field what it becomes (ID text, time number, decimal text). Throws SyntaxError on a
 * non-JSON body.
 */
export function readEnvelope(text: string): Envelope {
  const body = parse(text);
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('code' in body)) {
    return { data: body, ok: true };
  }
  const { code, msg, data } = body as { code: unknown; msg?: unknown; data?: unknown };
  const codeText = String(code);
  const ok = isSuccessCode(codeText);
  // A v3 success without `data` (e.g. `{code: 0, msg: "success"}`) still counts; raw objects keep their fields.
  return { code: codeText, msg: msg == null ? undefined : String(msg), data: 'data' in body ? data : body, ok };
}
