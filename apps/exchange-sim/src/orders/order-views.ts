import { OPEN_ORDER_EXTRA_FIELDS, type SimOrder } from '../state/order-records.js';

/** An order as an endpoint shows it: open-order items carry the extra fields, order info and history do not. */
export function orderView(order: SimOrder, open: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = { ...order };
  if (!open) for (const field of OPEN_ORDER_EXTRA_FIELDS) delete view[field];
  return view;
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
