import { readParams, type V2Symbol } from '../http/operation-params.js';
import type { RequestParams } from '../http/request-params.js';
import type { TimeRange } from '../http/time-range.js';

export interface OpenOrdersQuery {
  symbol?: string;
  /** Only orders whose ID is greater than this. */
  afterId?: bigint;
  range: TimeRange;
  limit: number;
  page: number;
}

/** openOrders (spec operation 4), by its parameters in OPERATIONS. */
export function parseOpenOrdersQuery(params: RequestParams): OpenOrdersQuery {
  const { symbol, orderId, startTime, endTime, limit, page } = readParams('openOrders', params);
  return { symbol, afterId: orderId, range: { start: startTime, end: endTime }, limit, page: page ?? 0 };
}

export interface AlgoOrdersQuery {
  symbol?: string;
  range: TimeRange;
  limit: number;
}

/** allAlgoOrders (spec operation 5), by its parameters in OPERATIONS. */
export function parseAlgoOrdersQuery(params: RequestParams): AlgoOrdersQuery {
  const { symbol, startTime, endTime, limit } = readParams('algoOrders', params);
  return { symbol, range: { start: startTime, end: endTime }, limit };
}

export interface OrderHistoryQuery {
  symbol?: string;
  range: TimeRange;
  limit: number;
  page: number;
}

/** order/history (spec operation 7), by its parameters in OPERATIONS. */
export function parseOrderHistoryQuery(params: RequestParams): OrderHistoryQuery {
  const { symbol, startTime, endTime, limit, page } = readParams('orderHistory', params);
  return { symbol, range: { start: startTime, end: endTime }, limit, page: page ?? 0 };
}

/** The cancel_batch_orders body (spec operation 11): a v2 symbol and exactly one of ids or cids. */
export function parseCancelBatch(params: RequestParams): { symbol: V2Symbol; ids?: string[]; cids?: string[] } {
  return readParams('cancelBatchOrders', params);
}

/** The cancel_plan body (spec operation 12): a v2 symbol and the plan order's ID. */
export function parseCancelPlan(params: RequestParams): { symbol: V2Symbol; algoId: bigint } {
  const { symbol, orderId } = readParams('cancelPlan', params);
  return { symbol, algoId: orderId };
}
