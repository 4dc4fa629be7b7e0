import type { SimAccount } from '../state/sim-account.js';

/** The parts of an HTTP request that authentication looks at. */
export interface IncomingSignedRequest {
  method: string;
  /** Path and query as received, e.g. `/capi/v3/order?orderId=1`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The exact body text; empty when there is none. */
  rawBody: string;
}

/** A request whose credentials and signature checked out. */
export interface VerifiedRequest {
  account: SimAccount;
  /** Path without the query. */
  path: string;
  timestamp: string;
  signature: string;
  rawBody: string;
}
