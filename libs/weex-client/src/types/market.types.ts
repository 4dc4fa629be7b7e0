import type { Millis } from './common.types.js';

export interface ServerTime {
  serverTime: Millis;
}

/** One entry of `exchangeInfo.rateLimits`. */
export interface RateLimitInfo {
  rateLimitType: string;
  interval: string;
  intervalNum: number;
  limit: number;
}

/** The parts of exchange info this client reads; other fields pass through, numbers as decimal text. */
export interface ExchangeInfo {
  rateLimits: RateLimitInfo[];
  [field: string]: unknown;
}
