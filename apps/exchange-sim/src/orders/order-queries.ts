import { invalidParam, type RequestParams } from '../http/request-params.js';
import { checkRange, type TimeRange } from '../http/time-range.js';

/** The spec's page is an Integer, Java's (its types are Long and Integer): at most 2^31 - 1. */
const PAGE = { min: 0, max: 2 ** 31 - 1, fallback: 0 };

export interface OpenOrdersQuery {
  symbol?: string;
  /** Only orders whose ID is greater than this. */
  afterId?: bigint;
  range: TimeRange;
  limit: number;
  page: number;
}

/** openOrders (spec operation 4): limit 1-100, default 100; page from 0. */
export function parseOpenOrdersQuery(params: RequestParams): OpenOrdersQuery {
  return {
    symbol: params.v3Symbol(),
    afterId: params.id('orderId'),
    range: { start: params.time('startTime'), end: params.time('endTime') },
    limit: params.int('limit', { min: 1, max: 100, fallback: 100 }),
    page: params.int('page', PAGE),
  };
}

export interface AlgoOrdersQuery {
  symbol?: string;
  range: TimeRange;
  limit: number;
}

/** allAlgoOrders (spec operation 5): endTime within 90 days of startTime; limit 1-1000, default 500. */
export function parseAlgoOrdersQuery(params: RequestParams): AlgoOrdersQuery {
  return {
    symbol: params.v3Symbol(),
    range: checkRange({ start: params.time('startTime'), end: params.time('endTime') }, 90),
    limit: params.int('limit', { min: 1, max: 1000, fallback: 500 }),
  };
}

export interface OrderHistoryQuery {
  symbol?: string;
  range: TimeRange;
  limit: number;
  page: number;
}

/** order/history (spec operation 7): startTime ≤ endTime, at most 90 days apart; limit 1-1000, default 500; page from 0. */
export function parseOrderHistoryQuery(params: RequestParams): OrderHistoryQuery {
  return {
    symbol: params.v3Symbol(),
    range: checkRange({ start: params.time('startTime'), end: params.time('endTime') }, 90),
    limit: params.int('limit', { min: 1, max: 1000, fallback: 500 }),
    page: params.int('page', PAGE),
  };
}

/** The cancel_batch_orders body (spec operation 11): a v2 symbol and exactly one of ids or cids. */
export interface CancelBatchRequest {
  /** As sent (cmt_btcusdt) and in v3 notation (BTCUSDT). */
  symbol: { v2: string; v3: string };
  ids?: string[];
  cids?: string[];
}

export function parseCancelBatch(params: RequestParams): CancelBatchRequest {
  const symbol = params.v2Symbol();
  const ids = params.list('ids', 'ids');
  const cids = params.list('cids', 'strings');
  if ((ids === undefined) === (cids === undefined)) throw invalidParam('ids', 'or cids: give exactly one of them');
  return { symbol, ids, cids };
}

/** The cancel_plan body (spec operation 12): a v2 symbol and the plan order's ID. */
export function parseCancelPlan(params: RequestParams): { symbol: { v2: string; v3: string }; algoId: bigint } {
  return { symbol: params.v2Symbol(), algoId: params.requiredId('orderId') };
}
