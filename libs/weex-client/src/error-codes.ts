import type { WeexErrorKind } from './weex-api.error.js';

/**
 * Exchange codes by meaning: weex-facts.md ("Error codes worth classifying") and ccxt's exceptions table
 * (docs/weex-ccxt-facts.md); v2 codes are strings, v3 negative.
 */
export const TIMESTAMP_CODES = new Set(['40008', '40005', '-1046', '-1043']);
/** Bad credentials, and the ACCESS_KEY / ACCESS_SIGN / ACCESS_TIMESTAMP headers missing (ccxt -1040 to -1042). */
const AUTH_CODES = new Set(['40009', '40012', '40006', '-1040', '-1041', '-1042', '-1047', '-1049', '-1044']);
/**
 * Not permitted: IP, API key or UID permissions, and ccxt's account states (-1050 user status abnormal, -1055 must
 * bind phone or Google authenticator, -1057 locked, -1058 no permission for the pair, -1190 access forbidden).
 */
const PERMISSION_CODES = new Set([
  '40018',
  '-1056',
  '40014',
  '40022',
  '50003',
  '50004',
  '-1051',
  '-1052',
  '-1053',
  '-3235',
  '-3236',
  '-1050',
  '-1055',
  '-1057',
  '-1058',
  '-1190',
]);
const TRANSIENT_CODES = new Set(['40015', '-1000', '-1054']);
/** "Order does not exist": contract -3200 and spot -2200 (ccxt), and the v2 code the simulator answers [G]. */
const ORDER_NOT_FOUND_CODES = new Set(['-3200', '-2200', '43001']);
/**
 * The exchange could not read the request as the gateway sent it, whatever its parameters: ccxt's -1045
 * INVALID_CONTENT_TYPE, -1135 INVALID_JSON, -1150 REQUEST_METHOD_NOT_SUPPORTED (weex.js:371, 388, 392). An
 * `invalid_request` (sending it again changes nothing), but the gateway's fault, never its caller's.
 */
const MALFORMED_REQUEST_CODES = new Set(['-1045', '-1135', '-1150']);

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

/** Whether the exchange refused a request because the order it names does not exist (an `invalid_request`). */
export function isOrderNotFoundCode(code: string | undefined): boolean {
  return code !== undefined && ORDER_NOT_FOUND_CODES.has(code);
}

/** Whether the exchange refused the form of the gateway's request (content type, JSON, method), not its values. */
export function isMalformedRequestCode(code: string | undefined): boolean {
  return code !== undefined && MALFORMED_REQUEST_CODES.has(code);
}

/** Codes that mean success in an envelope: v3 `0`, v2 `"00000"` (and `"0"`, `"200"` seen in captures). */
export function isSuccessCode(code: string): boolean {
  return code === '0' || code === '00000' || code === '200';
}
