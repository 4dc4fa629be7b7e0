import { Inject, Injectable } from '@nestjs/common';
import { FAILURE_CODES, SimFailure } from '../errors.js';
import type { RequestParams } from '../http/request-params.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import type { SimAccount } from '../state/sim-account.js';
import { CANCELLABLE_ALGO_STATUSES, OPEN_ORDER_STATUSES, type SimOrder } from '../state/order-records.js';
import { parseCancelBatch, parseCancelPlan } from './order-queries.js';
import type { CancelBatchResult, CancelOrderResult, CancelPlanResult } from './order-views.js';

/**
 * The two v2 cancel operations (spec 11 and 12). Failures are reported per order with HTTP 200, as the spec's
 * error rules 2 and 3 describe; a cancelled order leaves openOrders and shows in order/history as CANCELED.
 */
@Injectable()
export class OrderCancelService {
  constructor(@Inject(SIM_CLOCK) private readonly clock: Clock) {}

  cancelBatch(account: SimAccount, params: RequestParams): CancelBatchResult {
    const { symbol, ids, cids } = parseCancelBatch(params);
    const ofSymbol = account.data.orders.filter((o) => o.symbol === symbol.v3);
    const results = ids
      ? ids.map((id) =>
          this.cancelOrder(
            ofSymbol.find((o) => String(o.orderId) === id),
            { order_id: id, client_oid: '' },
          ),
        )
      : (cids ?? []).map((cid) =>
          this.cancelOrder(
            ofSymbol.find((o) => o.clientOrderId === cid),
            { order_id: '', client_oid: cid },
          ),
        );
    const failInfos = results.filter((r) => !r.result);
    return {
      result: failInfos.length === 0,
      symbol: symbol.v2,
      orderIds: results.map((r) => r.order_id),
      clientOids: results.map((r) => r.client_oid),
      cancelOrderResultList: results,
      failInfos,
    };
  }

  cancelPlan(account: SimAccount, params: RequestParams): CancelPlanResult {
    const { symbol, algoId } = parseCancelPlan(params);
    const plan = account.data.planOrders.find((p) => p.algoId === algoId && p.symbol === symbol.v3);
    const answer = { order_id: String(algoId), client_oid: plan?.clientAlgoId ?? null, symbol: symbol.v2 };
    if (!plan) return { ...answer, ...failure(SimFailure.OrderNotFound, 'Plan order does not exist') };
    if (!CANCELLABLE_ALGO_STATUSES.includes(plan.algoStatus)) {
      return { ...answer, ...failure(SimFailure.OrderNotCancellable, `Plan order is ${plan.algoStatus}`) };
    }
    plan.algoStatus = 'CANCELED';
    plan.updateTime = this.clock();
    return { ...answer, result: true, err_code: null, err_msg: null };
  }

  private cancelOrder(order: SimOrder | undefined, asked: { order_id: string; client_oid: string }): CancelOrderResult {
    if (!order) return { ...asked, ...failure(SimFailure.OrderNotFound, 'Order does not exist') };
    const ids = { order_id: String(order.orderId), client_oid: order.clientOrderId };
    if (!OPEN_ORDER_STATUSES.includes(order.status)) {
      return { ...ids, ...failure(SimFailure.OrderNotCancellable, `Order is ${order.status}`) };
    }
    order.status = 'CANCELED';
    order.updateTime = this.clock();
    return { ...ids, err_code: '', err_msg: '', result: true };
  }
}

function failure(kind: SimFailure, message: string): { result: false; err_code: string; err_msg: string } {
  return { result: false, err_code: FAILURE_CODES[kind].v2, err_msg: message };
}
