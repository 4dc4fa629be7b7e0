import type { FailureCodes } from '../errors.js';

/** WEEX wraps v2 and v3 answers differently; the path tells which one a request gets. */
export type ApiVersion = 'v2' | 'v3';

export function apiVersionOf(url: string): ApiVersion {
  return url.startsWith('/capi/v2/') ? 'v2' : 'v3';
}

/** The v2 success envelope: `{"code":"00000","msg":"success","requestTime":<ms>,"data":...}`. */
export function v2Success(data: unknown, now: number): Record<string, unknown> {
  return { code: '00000', msg: 'success', requestTime: now, data };
}

/** v3: `{"code":<negative int>,"msg":...}`; v2: `{"code":"<string>","msg":...,"requestTime":<ms>,"data":null}`. */
export function errorBody(version: ApiVersion, codes: FailureCodes, msg: string, now: number): Record<string, unknown> {
  return version === 'v3' ? { code: codes.v3, msg } : { code: codes.v2, msg, requestTime: now, data: null };
}

/** The code a client sees, as text, for counting rejections. */
export function answeredCode(version: ApiVersion, codes: FailureCodes): string {
  return version === 'v3' ? String(codes.v3) : codes.v2;
}
