import type { WeexErrorKind } from './weex-api.error.js';

/** Exchange codes by meaning (weex-facts.md, "Error codes worth classifying"); v2 codes are strings, v3 negative. */
export const TIMESTAMP_CODES = new Set(['40008', '40005', '-1046', '-1043']);
const AUTH_CODES = new Set(['40009', '40012', '40006', '-1047', '-1049', '-1044']);
const PERMISSION_CODES = new Set(['40018', '-1056', '40014', '40022', '50003', '50004', '-1051', '-1052', '-1053', '-3235', '-3236']);
const TRANSIENT_CODES = new Set(['40015', '-1000', '-1054']);

/** Classifies a failed answer by HTTP status first (429, 5xx, 521), then by the exchange's code. */
export function classify(httpStatus: number, code: string | undefined): WeexErrorKind {
  if (httpStatus === 429) return 'rate_limited';
  if (httpStatus === 521) return 'unavailable';
  // A path the exchange does not serve is our mistake, whatever code comes with it.
  if (httpStatus === 404) return 'invalid_request';
  if (code !== undefined) {
    if (TIMESTAMP_CODES.has(code) || AUTH_CODES.has(code)) return 'auth';
    if (PERMISSION_CODES.has(code)) return 'permission';
    if (TRANSIENT_CODES.has(code)) return 'transient';
  }
  if (httpStatus >= 500) return 'transient';
  if (httpStatus === 401) return 'auth';
  if (httpStatus === 403) return 'permission';
  return 'invalid_request';
}

/** Codes that mean success in an envelope: v3 `0`, v2 `"00000"` (and `"0"`, `"200"` seen in captures). */
export function isSuccessCode(code: string): boolean {
  return code === '0' || code === '00000' || code === '200';
}
