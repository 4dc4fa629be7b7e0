import { NO_PRESETS, type SimOrder, type SimPlanOrder, WAITING_ALGO_STATUS } from '../state/order-records.js';
import { MARKET_SYMBOLS, marketOf } from './market-catalog.js';
import { DAY_MS, HISTORY_DAYS, HOUR_MS, type SeedContext } from './seed-context.js';

/** The value sets of algoType, orderType and algoStatus are not in the spec; these are ccxt's captures (weex.js) [L]. */
const ORDER_TYPES = ['STOP_MARKET', 'TAKE_PROFIT_MARKET', 'STOP', 'TAKE_PROFIT'];

/** One conditional order; a TRIGGERED one should come with the order it placed (see generatePlanOrders). */
export function makePlanOrder(ctx: SeedContext, hints: Partial<SimPlanOrder> = {}): SimPlanOrder {
  const { rng } = ctx;
  const market = marketOf(hints.symbol ?? rng.pick(MARKET_SYMBOLS).symbol);
  const orderType = hints.orderType ?? rng.pick(ORDER_TYPES);
  const algoStatus = hints.algoStatus ?? WAITING_ALGO_STATUS;
  const createTime = hints.createTime ?? ctx.timeWithin(HISTORY_DAYS);
  const positionSide = hints.positionSide ?? rng.pick(['LONG', 'SHORT']);
  const triggerPrice = hints.triggerPrice ?? ctx.price(market);
  return {
    algoId: ctx.id(createTime),
    clientAlgoId: `plan-${rng.hex(16)}`,
    algoType: 'CONDITIONAL',
    orderType,
    symbol: market.symbol,
    side: positionSide === 'LONG' ? 'SELL' : 'BUY',
    positionSide,
    timeInForce: 'GTC',
    quantity: ctx.quantity(market),
    algoStatus,
    actualOrderId: 0,
    actualPrice: '0',
    triggerPrice,
    // A limit plan order places its order at the trigger price.
    price: orderType.endsWith('_MARKET') ? '0' : triggerPrice,
    workingType: rng.pick(['MARK_PRICE', 'CONTRACT_PRICE']),
    ...NO_PRESETS,
    reduceOnly: true,
    createTime,
    updateTime: algoStatus === WAITING_ALGO_STATUS ? createTime : Math.min(ctx.now, createTime + rng.int(HOUR_MS, 5 * DAY_MS)),
    triggerTime: 0,
    ...hints,
  };
}

/**
 * ~24 plan orders: UNTRIGGERED ones from the last 10 days, CANCELED and EXPIRED ones, and TRIGGERED ones that each
 * placed one of the account's filled orders (actualOrderId = that order's orderId).
 */
export function generatePlanOrders(ctx: SeedContext, orders: readonly SimOrder[]): SimPlanOrder[] {
  const { rng } = ctx;
  const filled = orders.filter((o) => o.status === 'FILLED');
  const triggered = Array.from({ length: Math.min(8, filled.length) }, (_, i) => {
    const order = filled[Math.floor((i * filled.length) / 8)];
    return makePlanOrder(ctx, {
      symbol: order.symbol,
      side: order.side,
      positionSide: order.positionSide,
      quantity: order.origQty,
      algoStatus: 'TRIGGERED',
      actualOrderId: order.orderId,
      actualPrice: order.avgPrice,
      createTime: order.time - rng.int(HOUR_MS, 5 * DAY_MS),
      triggerTime: order.time,
      updateTime: order.time,
    });
  });
  const waiting = Array.from({ length: 4 }, () => makePlanOrder(ctx, { algoStatus: WAITING_ALGO_STATUS, createTime: ctx.timeWithin(10) }));
  const ended = Array.from({ length: 12 }, (_, i) => makePlanOrder(ctx, { algoStatus: i < 8 ? 'CANCELED' : 'EXPIRED' }));
  return [...triggered, ...waiting, ...ended].sort((a, b) => a.createTime - b.createTime);
}

/** Generated orders that a generated plan order placed take its type and trigger price, as order/history shows them (weex.js) [L]. */
export function markTriggeredOrders(orders: readonly SimOrder[], plans: readonly SimPlanOrder[]): void {
  for (const plan of plans) {
    const order = orders.find((o) => o.orderId === BigInt(plan.actualOrderId));
    if (!order || plan.algoStatus !== 'TRIGGERED') continue;
    const market = plan.orderType.endsWith('_MARKET');
    Object.assign(order, { type: plan.orderType, stopPrice: plan.triggerPrice, price: market ? '0' : order.price, reduceOnly: plan.reduceOnly });
  }
}
