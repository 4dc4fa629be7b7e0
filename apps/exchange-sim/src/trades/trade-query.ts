import { invalidParam, type RequestParams } from '../http/request-params.js';
import { checkRange, DAY_MS, type TimeRange } from '../http/time-range.js';

const WINDOW_DAYS = 7;
const LOOKBACK_DAYS = 365;

export interface TradesQuery {
  symbol?: string;
  orderId?: bigint;
  range: TimeRange;
  limit: number;
}

/**
 * userTrades (spec operation 8): endTime ≥ startTime, limit 1-100, default 100. weex-facts [L]: the window is at
 * most 7 days and reaches at most 365 days back. A missing end is start + 7 days, a missing start is end - 7 days;
 * with neither, the last 7 days, except that an orderId alone asks for all that order's trades [G].
 */
export function parseTradesQuery(params: RequestParams, now: number): TradesQuery {
  const symbol = params.v3Symbol();
  const orderId = params.id('orderId');
  const limit = params.int('limit', { min: 1, max: 100, fallback: 100 });
  const start = params.time('startTime');
  const end = params.time('endTime');
  const window = WINDOW_DAYS * DAY_MS;
  if (start === undefined && end === undefined) {
    return { symbol, orderId, limit, range: orderId !== undefined ? {} : { start: now - window, end: now } };
  }
  const from = start ?? (end as number) - window;
  const range = checkRange({ start: from, end: end ?? from + window }, WINDOW_DAYS);
  if (from < now - LOOKBACK_DAYS * DAY_MS) {
    throw invalidParam(start !== undefined ? 'startTime' : 'endTime', `must be within the last ${LOOKBACK_DAYS} days`);
  }
  return { symbol, orderId, limit, range };
}
