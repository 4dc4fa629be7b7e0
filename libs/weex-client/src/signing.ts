import { createHmac } from 'node:crypto';

/** The parts of a request that WEEX signs. */
export interface SignableRequest {
  /** Unix milliseconds, as sent in ACCESS-TIMESTAMP. */
  timestamp: string;
  method: string;
  /** Path with its prefix (`/capi/v3/order`), never the host. */
  requestPath: string;
  /** Query string without the leading `?`; empty when there is none. */
  queryString?: string;
  /** The exact body text that is sent; empty for GET. */
  body?: string;
}

/** The text WEEX signs: timestamp + METHOD + requestPath + ("?" + query, only when non-empty) + body. */
export function prehash(req: SignableRequest): string {
  const query = req.queryString ? `?${req.queryString}` : '';
  return `${req.timestamp}${req.method.toUpperCase()}${req.requestPath}${query}${req.body ?? ''}`;
}

/** ACCESS-SIGN: Base64 (not hex) of HMAC-SHA256(secret, prehash). */
export function sign(secret: string, req: SignableRequest): string {
  return createHmac('sha256', secret).update(prehash(req)).digest('base64');
}
