import { OPERATIONS } from '#libs/weex-client';
import { readParams } from '../http/operation-params.js';
import { invalidParam, type RequestParams } from '../http/request-params.js';
import { checkRange, DAY_MS, type TimeRange } from '../http/time-range.js';

const { maxDays: WINDOW_DAYS, lookbackDays: LOOKBACK_DAYS } = OPERATIONS.userTrades.params.window;

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
  const { symbol, orderId, limit, startTime: start, endTime: end } = readParams('userTrades', params);
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
