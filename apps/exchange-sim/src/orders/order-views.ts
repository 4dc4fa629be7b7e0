import { OPEN_ORDER_EXTRA_FIELDS, type SimOrder, type SimPlanOrder } from '../state/order-records.js';

/** An order as an endpoint shows it: open-order items carry the extra fields, order info and history do not. */
export function orderView(order: SimOrder, open: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = { ...order };
  if (!open) for (const field of OPEN_ORDER_EXTRA_FIELDS) delete view[field];
  return view;
}

/**
 * A plan order that ended without placing an order, as order/history lists it: under its algoId, with its order type
 * and trigger price (ccxt's capture: a TAKE_PROFIT_MARKET item, CANCELED, stopPrice set, no fills) [L].
 */
export function endedPlanView(plan: SimPlanOrder): SimOrder {
  return {
    avgPrice: '0',
    clientOrderId: plan.clientAlgoId,
    cumQuote: '0',
    executedQty: '0',
    orderId: plan.algoId,
    origQty: plan.quantity,
    price: plan.price,
    reduceOnly: plan.reduceOnly,
    side: plan.side,
    positionSide: plan.positionSide,
    status: plan.algoStatus,
    stopPrice: plan.triggerPrice,
    symbol: plan.symbol,
    time: plan.createTime,
    timeInForce: plan.timeInForce,
    type: plan.orderType,
    updateTime: plan.updateTime,
    workingType: plan.workingType,
    priceProtect: false,
    priceMatch: 'NONE',
    selfTradePreventionMode: 'NONE',
    goodTillDate: 0,
  };
}

/** One per-order result of cancel_batch_orders (spec "CancelOrderResult"). */
export interface CancelOrderResult {
  err_code: string;
  err_msg: string;
  order_id: string;
  client_oid: string;
  result: boolean;
}

/** What cancel_batch_orders answers, raw (no envelope, weex-facts). */
export interface CancelBatchResult {
  result: boolean;
  symbol: string;
  orderIds: string[];
  clientOids: string[];
  cancelOrderResultList: CancelOrderResult[];
  failInfos: CancelOrderResult[];
}

/** What cancel_plan answers, raw. */
export interface CancelPlanResult {
  order_id: string;
  client_oid: string | null;
  symbol: string;
  result: boolean;
  err_code: string | null;
  err_msg: string | null;
}
