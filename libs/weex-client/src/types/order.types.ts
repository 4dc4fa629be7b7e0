import type { OperationRequest } from '../operations.js';
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

/** Its fields and their rules are declared in OPERATIONS.openOrders.params. */
export type OpenOrdersRequest = OperationRequest<'openOrders'>;

/** Its fields and their rules are declared in OPERATIONS.algoOrders.params. */
export type AlgoOrdersRequest = OperationRequest<'algoOrders'>;

export interface AlgoOrdersPage {
  orders: PlanOrder[];
  hasMore: boolean;
}

/** Its fields and their rules are declared in OPERATIONS.orderHistory.params. */
export type OrderHistoryRequest = OperationRequest<'orderHistory'>;

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

/** Its fields and their rules are declared in OPERATIONS.cancelPlan.params. */
export type CancelPlanRequest = OperationRequest<'cancelPlan'>;

export interface CancelPlanResult {
  order_id: Id;
  client_oid: string | null;
  symbol: string;
  result: boolean;
  /** Null on success; the exchange does not document its type, so it is normalised to text. */
  err_code: string | null;
  err_msg: string | null;
}
