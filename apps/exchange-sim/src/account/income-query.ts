import { SimError, SimFailure } from '../errors.js';
import { readParams } from '../http/operation-params.js';
import type { RequestParams } from '../http/request-params.js';
import { DAY_MS, type TimeRange } from '../http/time-range.js';

const DEFAULT_SPAN_DAYS = 30;

export interface IncomeQuery {
  asset?: string;
  symbol?: string;
  incomeType?: string;
  range: TimeRange;
  limit: number;
  /** The page after the one whose `nextKey` this is: the billId of that page's last item. */
  after?: bigint;
}

/**
 * The income body (spec operation 3): limit 1-100, default 20. Time rules as ccxt documents the exchange's (weex.js
 * fetchFundingHistory): startTime and endTime only as a pair, at most 100 days apart; a time sent alone is refused,
 * although the spec gives defaults for it [L]. Neither → the last 30 days [G]. `nextKey` asks for the next page.
 */
export function parseIncomeQuery(params: RequestParams, now: number): IncomeQuery {
  const { nextKey: key, startTime: start, endTime: end, ...rest } = readParams('income', params);
  if ((start === undefined) !== (end === undefined)) {
    throw new SimError(SimFailure.ParamCombination, 'Combination of optional parameters invalid: startTime and endTime must be sent together');
  }
  const range = start !== undefined && end !== undefined ? { start, end } : { start: now - DEFAULT_SPAN_DAYS * DAY_MS, end: now };
  return { ...rest, after: key, range };
}
