import { Injectable } from '@nestjs/common';
import { SimError, SimFailure } from '../errors.js';
import { newestFirst, pageOf } from '../http/list-paging.js';
import { invalidParam, type RequestParams } from '../http/request-params.js';
import { inRange } from '../http/time-range.js';
import type { SimAccount } from '../state/sim-account.js';
import { ENDED_ALGO_STATUSES, OPEN_ORDER_STATUSES, type SimOrder, type SimPlanOrder } from '../state/order-records.js';
import { parseAlgoOrdersQuery, parseOpenOrdersQuery, parseOrderHistoryQuery } from './order-queries.js';
import { endedPlanView, orderView } from './order-views.js';

const isOpen = (order: SimOrder) => OPEN_ORDER_STATUSES.includes(order.status);
const byTime = (items: readonly SimOrder[]) =>
  newestFirst(
    items,
    (o) => o.time,
    (o) => o.orderId,
  );

/** Final orders, and the plan orders that ended without placing one, listed as orders under their algoId. */
function finalOrders(account: SimAccount): SimOrder[] {
  const ended = account.data.planOrders.filter((p) => ENDED_ALGO_STATUSES.includes(p.algoStatus)).map(endedPlanView);
  return [...account.data.orders.filter((o) => !isOpen(o)), ...ended];
}

/** Order queries (spec operations 4-7), newest first. */
@Injectable()
export class OrdersService {
  openOrders(account: SimAccount, params: RequestParams): Record<string, unknown>[] {
    const q = parseOpenOrdersQuery(params);
    const matching = account.data.orders.filter(
      (o) => isOpen(o) && (q.symbol === undefined || o.symbol === q.symbol) && (q.afterId === undefined || o.orderId > q.afterId) && inRange(o.time, q.range),
    );
    return pageOf(byTime(matching), q.page, q.limit).map((o) => orderView(o, true));
  }

  /** Conditional orders by createTime; hasMore says more match than `limit`. */
  algoOrders(account: SimAccount, params: RequestParams): { orders: SimPlanOrder[]; hasMore: boolean } {
    const q = parseAlgoOrdersQuery(params);
    const matching = account.data.planOrders.filter((p) => (q.symbol === undefined || p.symbol === q.symbol) && inRange(p.createTime, q.range));
    const orders = newestFirst(
      matching,
      (p) => p.createTime,
      (p) => p.algoId,
    );
    return { orders: orders.slice(0, q.limit), hasMore: orders.length > q.limit };
  }

  /** By orderId, or by origClientOrderId as ccxt's fetchOrderWithClientOrderId asks (weex.js:4392: either one). */
  order(account: SimAccount, params: RequestParams): Record<string, unknown> {
    const orderId = params.id('orderId');
    const clientId = orderId === undefined ? params.string('origClientOrderId') : undefined;
    if (orderId === undefined && clientId === undefined) throw invalidParam('orderId', 'or origClientOrderId must be sent');
    const matches = (o: SimOrder) => (orderId !== undefined ? o.orderId === orderId : o.clientOrderId === clientId);
    const order = account.data.orders.find(matches) ?? finalOrders(account).find(matches);
    // ccxt's captured wording (weex.js exceptions: -3200 CONTRACT_ORDER_NOT_EXIST).
    if (!order) throw new SimError(SimFailure.OrderNotFound, 'Order does not exist.');
    return orderView(order, false);
  }

  /** Final orders (filled, cancelled, expired...) and ended plan orders; open ones are served by openOrders. */
  history(account: SimAccount, params: RequestParams): Record<string, unknown>[] {
    const q = parseOrderHistoryQuery(params);
    const matching = finalOrders(account).filter((o) => (q.symbol === undefined || o.symbol === q.symbol) && inRange(o.time, q.range));
    return pageOf(byTime(matching), q.page, q.limit).map((o) => orderView(o, false));
  }
}
