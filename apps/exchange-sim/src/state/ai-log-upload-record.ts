/** One accepted AI-log upload, as the simulator received it. */
export interface AiLogUploadRecord {
  /** 1, 2, 3... across all accounts, in order of acceptance; never reused, not even after a clear. */
  seq: number;
  /** Simulator clock at acceptance, Unix ms. */
  receivedAt: number;
  uid: string;
  apiKey: string;
  /** Request path without the query, e.g. `/capi/v3/order/uploadAiLog`. */
  path: string;
  /** The ACCESS-TIMESTAMP header value. */
  timestamp: string;
  /** The ACCESS-SIGN header value. */
  signature: string;
  /** The exact body text received. */
  rawBody: string;
}
