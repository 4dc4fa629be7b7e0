import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SimError, SimFailure } from '../errors.js';
import { invalidParam, type RequestParams } from '../http/request-params.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import { CANCELLABLE_ALGO_STATUSES, NO_PRESETS, OPEN_ORDER_STATUSES, type SimOrder, type SimPlanOrder, WAITING_ALGO_STATUS } from '../state/order-records.js';
import type { SimAccount } from '../state/sim-account.js';
import { SimState } from '../state/sim-state.js';
import { type NewPlanRequest, parseNewOrder, parseNewPlan } from './order-requests.js';

const isOpen = (o: SimOrder) => OPEN_ORDER_STATUSES.includes(o.status);
const notFound = () => new SimError(SimFailure.OrderNotFound, 'Order does not exist.');

/**
 * The trading endpoints ccxt calls for WEEX contracts (weex.js createOrder, cancelOrder, cancelOrders,
 * cancelAllOrders, fetchOpenOrders with trigger), on the account's own data: what they place shows in openOrders,
 * order/history, userTrades and allAlgoOrders like any other order.
 */
@Injectable()
export class TradingService {
  constructor(
    private readonly state: SimState,
    @Inject(SIM_CLOCK) private readonly clock: Clock,
  ) {}

  /** POST /capi/v3/order: the order as order info would show it. Attached TP/SL become plan orders naming it. */
  placeOrder(account: SimAccount, params: RequestParams): SimOrder {
    const req = parseNewOrder(params);
    const now = this.clock();
    const order = this.state.desk.place(
      account,
      {
        avgPrice: '0',
        clientOrderId: req.clientOrderId ?? randomUUID(),
        cumQuote: '0',
        executedQty: '0',
        orderId: this.state.newId(now),
        origQty: req.quantity,
        price: req.price,
        reduceOnly: req.reduceOnly,
        side: req.side,
        positionSide: req.positionSide,
        status: 'NEW',
        stopPrice: '0',
        symbol: req.market.symbol,
        time: now,
        timeInForce: req.timeInForce,
        type: req.type,
        updateTime: now,
        workingType: 'UNKNOWN_PRICE_TYPE',
        priceProtect: false,
        priceMatch: 'NONE',
        selfTradePreventionMode: 'NONE',
        goodTillDate: 0,
      },
      now,
    );
    // ccxt's capture: attached TP/SL plan orders carry the order they protect as actualOrderId while they wait [L].
    const close = { side: req.side === 'BUY' ? 'SELL' : 'BUY', positionSide: req.positionSide, quantity: req.quantity, reduceOnly: true };
    for (const [trigger, orderType, workingType] of [
      [req.tpTriggerPrice, 'TAKE_PROFIT_MARKET', req.tpWorkingType],
      [req.slTriggerPrice, 'STOP_MARKET', req.slWorkingType],
    ] as const) {
      if (trigger === undefined) continue;
      const plan = this.newPlan({ ...req, ...close, orderType, triggerPrice: trigger, price: '0', workingType }, now);
      plan.actualOrderId = order.orderId;
      this.state.desk.placePlan(account, plan, now);
    }
    return order;
  }

  /** POST /capi/v3/algoOrder: a stop or take-profit plan order. */
  placePlan(account: SimAccount, params: RequestParams): SimPlanOrder {
    const now = this.clock();
    return this.state.desk.placePlan(account, this.newPlan(parseNewPlan(params), now), now);
  }

  /** DELETE /capi/v3/order by orderId or origClientOrderId (ccxt sends one of them). */
  cancelOrder(account: SimAccount, params: RequestParams): SimOrder {
    return this.cancel(account, this.findOrder(account, params));
  }

  /**
   * DELETE /capi/v3/batchOrders: `{ orderList }`, one item per ID; an ID that is not an open order is reported as ccxt
   * captured it, `{"orderId":..,"status":"FAILED","errorMsg":"FAILED_ORDER_NOT_FOUND"}` (weex.js exceptions) [L].
   */
  cancelBatch(account: SimAccount, params: RequestParams): { orderList: Record<string, unknown>[] } {
    const ids = params.list('orderIdList', 'ids');
    const cids = params.list('origClientOrderIdList', 'strings');
    if ((ids === undefined) === (cids === undefined)) throw invalidParam('orderIdList', 'or origClientOrderIdList: give exactly one of them');
    const orderList = (ids ?? cids ?? []).map((key) => {
      const order = account.data.orders.find((o) => (ids ? String(o.orderId) === key : o.clientOrderId === key));
      if (!order || !isOpen(order))
        return { [ids ? 'orderId' : 'origClientOrderId']: ids ? BigInt(key) : key, status: 'FAILED', errorMsg: 'FAILED_ORDER_NOT_FOUND' };
      this.cancel(account, order);
      return { orderId: order.orderId, clientOrderId: order.clientOrderId, status: order.status };
    });
    return { orderList };
  }

  /** DELETE /capi/v3/allOpenOrders: every open order of the symbol (or of all symbols), as cancelled. */
  cancelAll(account: SimAccount, params: RequestParams): SimOrder[] {
    const symbol = params.v3Symbol();
    return account.data.orders.filter((o) => isOpen(o) && (symbol === undefined || o.symbol === symbol)).map((o) => this.cancel(account, o));
  }

  /** DELETE /capi/v3/algoOrder: ccxt names the plan order by `orderId` (its algoId). */
  cancelPlan(account: SimAccount, params: RequestParams): SimPlanOrder {
    const algoId = params.id('orderId') ?? params.requiredId('algoId');
    const plan = account.data.planOrders.find((p) => p.algoId === algoId);
    if (!plan || !CANCELLABLE_ALGO_STATUSES.includes(plan.algoStatus)) throw notFound();
    return this.cancelOnePlan(account, plan);
  }

  /** DELETE /capi/v3/algoOpenOrders: every waiting plan order of the symbol (or of all symbols). */
  cancelAllPlans(account: SimAccount, params: RequestParams): SimPlanOrder[] {
    const symbol = params.v3Symbol();
    return account.data.planOrders
      .filter((p) => CANCELLABLE_ALGO_STATUSES.includes(p.algoStatus) && (symbol === undefined || p.symbol === symbol))
      .map((p) => this.cancelOnePlan(account, p));
  }

  /** GET /capi/v3/openAlgoOrders: waiting plan orders, newest first. */
  openPlans(account: SimAccount, params: RequestParams): SimPlanOrder[] {
    const symbol = params.v3Symbol();
    const limit = params.int('limit', { min: 1, max: 1000, fallback: 500 });
    return account.data.planOrders
      .filter((p) => CANCELLABLE_ALGO_STATUSES.includes(p.algoStatus) && (symbol === undefined || p.symbol === symbol))
      .sort((a, b) => b.createTime - a.createTime)
      .slice(0, limit);
  }

  private findOrder(account: SimAccount, params: RequestParams): SimOrder {
    const orderId = params.id('orderId');
    const clientId = params.string('origClientOrderId');
    if (orderId === undefined && clientId === undefined) throw invalidParam('orderId', 'or origClientOrderId must be sent');
    const order = account.data.orders.find((o) => (orderId !== undefined ? o.orderId === orderId : o.clientOrderId === clientId));
    if (!order) throw notFound();
    return order;
  }

  private cancel(account: SimAccount, order: SimOrder): SimOrder {
    if (!isOpen(order)) throw notFound();
    Object.assign(order, { status: 'CANCELED', updateTime: this.clock() });
    this.state.desk.forget(account, order.orderId);
    return order;
  }

  private cancelOnePlan(account: SimAccount, plan: SimPlanOrder): SimPlanOrder {
    Object.assign(plan, { algoStatus: 'CANCELED', updateTime: this.clock() });
    this.state.desk.forget(account, plan.algoId);
    return plan;
  }

  private newPlan(req: NewPlanRequest, now: number): SimPlanOrder {
    return {
      algoId: this.state.newId(now),
      clientAlgoId: req.clientAlgoId ?? randomUUID(),
      algoType: 'CONDITIONAL',
      orderType: req.orderType,
      symbol: req.market.symbol,
      side: req.side,
      positionSide: req.positionSide,
      timeInForce: req.orderType.endsWith('_MARKET') ? 'IOC' : 'GTC',
      quantity: req.quantity,
      algoStatus: WAITING_ALGO_STATUS,
      actualOrderId: 0,
      actualPrice: '0',
      triggerPrice: req.triggerPrice,
      price: req.price,
      workingType: req.workingType,
      ...NO_PRESETS,
      reduceOnly: req.reduceOnly,
      createTime: now,
      updateTime: now,
      triggerTime: 0,
    };
  }
}
