import { SimError, SimFailure } from '../errors.js';
import { invalidParam, type RequestParams } from '../http/request-params.js';
import { checkRange, DAY_MS, type TimeRange } from '../http/time-range.js';

/** incomeType values of the spec (operation 3). */
export const INCOME_TYPES: readonly string[] = [
  'deposit',
  'withdraw',
  'transfer_in',
  'transfer_out',
  'margin_move_in',
  'margin_move_out',
  'position_open_long',
  'position_open_short',
  'position_close_long',
  'position_close_short',
  'position_funding',
  'order_fill_fee_income',
  'order_liquidate_fee_income',
  'start_liquidate',
  'finish_liquidate',
  'order_fix_margin_amount',
  'tracking_follow_pay',
  'tracking_system_pre_receive',
  'tracking_follow_back',
  'tracking_trader_income',
  'tracking_third_party_share',
];

const DEFAULT_SPAN_DAYS = 30;
const MAX_SPAN_DAYS = 100;

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
  const incomeType = params.string('incomeType');
  if (incomeType !== undefined && !INCOME_TYPES.includes(incomeType)) {
    throw invalidParam('incomeType', `must be one of ${INCOME_TYPES.join(', ')}`);
  }
  const start = params.time('startTime');
  const end = params.time('endTime');
  if ((start === undefined) !== (end === undefined)) {
    throw new SimError(SimFailure.ParamCombination, 'Combination of optional parameters invalid: startTime and endTime must be sent together');
  }
  const range = start !== undefined && end !== undefined ? checkRange({ start, end }, MAX_SPAN_DAYS) : { start: now - DEFAULT_SPAN_DAYS * DAY_MS, end: now };
  const nextKey = params.string('nextKey');
  if (nextKey !== undefined && !/^\d{1,19}$/.test(nextKey)) throw invalidParam('nextKey', 'must be the nextKey of a previous answer');
  return {
    after: nextKey === undefined ? undefined : BigInt(nextKey),
    asset: params.string('asset'),
    symbol: params.v3Symbol(),
    incomeType,
    range,
    limit: params.int('limit', { min: 1, max: 100, fallback: 20 }),
  };
}
