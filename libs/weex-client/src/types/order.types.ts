import type { Decimal, Id, IdInput, Millis, SymbolInput } from './common.types.js';

/** An order (order info; open orders and order history return arrays of it; history items may carry a subset). */
export interface Order {
  avgPrice: Decimal;
  clientOrderId: string;
  cumQuote: Decimal;
  executedQty: Decimal;
  orderId: Id;
  origQty: Decimal;
  price: Decimal;
  reduceOnly: boolean;
  /** BUY or SELL */
  side: string;
  /** LONG or SHORT */
  positionSide: string;
  status: string;
  stopPrice: Decimal;
  symbol: string;
  time: Millis;
  timeInForce: string;
  type: string;
  updateTime: Millis;
  workingType: string;
  /** Open-order items only. */
  priceProtect?: boolean;
  priceMatch?: string;
  selfTradePreventionMode?: string;
  goodTillDate?: Millis;
}

/** A conditional (plan) order from the conditional-order history. */
export interface PlanOrder {
  algoId: Id;
  clientAlgoId: string;
  algoType: string;
  orderType: string;
  symbol: string;
  side: string;
  positionSide: string;
  timeInForce: string;
  quantity: Decimal;
  algoStatus: string;
  /** The order placed on trigger. */
  actualOrderId: Id;
  actualPrice: Decimal;
  triggerPrice: Decimal;
  price: Decimal;
  workingType: string;
  createTime: Millis;
  updateTime: Millis;
  triggerTime: Millis;
}

export interface OpenOrdersRequest {
  symbol?: SymbolInput;
  /** Only orders whose ID is greater than this. */
  orderId?: IdInput;
  startTime?: Millis;
  endTime?: Millis;
  /** 1-100; default 100. */
  limit?: number;
  /** From 0; default 0. */
  page?: number;
}

export interface AlgoOrdersRequest {
  symbol?: SymbolInput;
  startTime?: Millis;
  /** Within 90 days of startTime. */
  endTime?: Millis;
  /** 1-1000; default 500. */
  limit?: number;
}

export interface AlgoOrdersPage {
  orders: PlanOrder[];
  hasMore: boolean;
}

export interface OrderHistoryRequest {
  symbol?: SymbolInput;
  /** 1-1000; default 500. */
  limit?: number;
  /** At most endTime. */
  startTime?: Millis;
  /** Within 90 days of startTime. */
  endTime?: Millis;
  /** From 0; default 0. */
  page?: number;
}

/** Exactly one of `ids` and `cids`, non-empty. */
export type CancelBatchOrdersRequest = { symbol: SymbolInput; ids: IdInput[]; cids?: undefined } | { symbol: SymbolInput; cids: string[]; ids?: undefined };

/** The outcome for one order of a batch cancel. */
export interface CancelOrderResult {
  /** Empty on success. */
  err_code: string;
  err_msg: string;
  order_id: Id;
  client_oid: string;
  result: boolean;
}

export interface CancelBatchOrdersResult {
  result: boolean;
  /** v2 notation, `cmt_btcusdt`. */
  symbol: string;
  orderIds: Id[];
  clientOids: string[];
  cancelOrderResultList: CancelOrderResult[];
  failInfos: CancelOrderResult[];
}

export interface CancelPlanRequest {
  symbol: SymbolInput;
  orderId: IdInput;
}

export interface CancelPlanResult {
  order_id: Id;
  client_oid: string | null;
  symbol: string;
  result: boolean;
  /** Null on success; the exchange does not document its type, so it is normalised to text. */
  err_code: string | null;
  err_msg: string | null;
}
