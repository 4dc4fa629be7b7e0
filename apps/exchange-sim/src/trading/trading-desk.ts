import type { PriceFeed } from '../market/price-feed.js';
import { fromUnits, toUnits } from '../seed/decimal-units.js';
import { OPEN_ORDER_STATUSES, type SimOrder, type SimPlanOrder, WAITING_ALGO_STATUS } from '../state/order-records.js';
import type { SimAccount } from '../state/sim-account.js';
import { fillOrder, type IdSource } from './fills.js';

const SECOND_MS = 1000;
/** How far back a live order is checked against the price path (after a long stop, the rest is skipped). */
const MAX_SCAN_MS = 2 * 86_400_000;

/** What the desk needs of the simulator: its prices, new IDs, and a way to say the state changed. */
export interface DeskDeps {
  prices: PriceFeed;
  newId: IdSource;
  changed(): void;
}

/**
 * The sandbox's matching: market orders fill at once at the simulated price (taker), limit orders when the price
 * reaches them (maker, at their price), plan orders trigger when the price crosses their trigger and then place their
 * order. Live orders are checked second by second along the price path, so when they fill does not depend on when
 * anyone asks.
 */
export class TradingDesk {
  /** Up to when (ms) each live order or plan order has been checked; from its last update after a restart. */
  private readonly checked = new Map<bigint, number>();

  constructor(private readonly deps: DeskDeps) {}

  /** The last price of `symbol` at `time`. */
  price(symbol: string, time: number): string {
    return this.deps.prices.priceAt(symbol, time);
  }

  /** Brings the account's live orders and plan orders up to `now`. */
  advance(account: SimAccount, now: number): void {
    let changed = false;
    for (const algoId of [...account.live.plans]) {
      const plan = account.data.planOrders.find((p) => p.algoId === algoId);
      if (!plan || plan.algoStatus !== WAITING_ALGO_STATUS) account.live.plans.delete(algoId);
      else if (this.scan(algoId, plan.symbol, plan.updateTime, now, (t, price) => triggers(plan, price) && this.trigger(account, plan, t))) changed = true;
    }
    for (const orderId of [...account.live.orders]) {
      const order = account.data.orders.find((o) => o.orderId === orderId);
      if (!order || !OPEN_ORDER_STATUSES.includes(order.status)) account.live.orders.delete(orderId);
      else if (
        this.scan(orderId, order.symbol, order.updateTime, now, (t, price) => reaches(order, price) && this.fillRest(account, order, order.price, true, t))
      )
        changed = true;
    }
    if (changed) this.deps.changed();
  }

  /** A new order: a market order fills now, a limit order the price already reaches fills now, the rest waits. */
  place(account: SimAccount, order: SimOrder, now: number): SimOrder {
    account.data.orders.push(order);
    const price = this.price(order.symbol, now);
    if (isMarket(order.type) || reaches(order, price)) this.fillRest(account, order, price, false, now);
    else if (order.timeInForce === 'IOC' || order.timeInForce === 'FOK') Object.assign(order, { status: 'EXPIRED', updateTime: now });
    else {
      account.live.orders.add(order.orderId);
      this.checked.set(order.orderId, now);
    }
    this.deps.changed();
    return order;
  }

  /** A new plan order waits for its trigger; one already met triggers now. */
  placePlan(account: SimAccount, plan: SimPlanOrder, now: number): SimPlanOrder {
    account.data.planOrders.push(plan);
    if (triggers(plan, this.price(plan.symbol, now))) this.trigger(account, plan, now);
    else {
      account.live.plans.add(plan.algoId);
      this.checked.set(plan.algoId, now);
    }
    this.deps.changed();
    return plan;
  }

  /** Stops following a cancelled order or plan order. */
  forget(account: SimAccount, id: bigint): void {
    account.live.orders.delete(id);
    account.live.plans.delete(id);
    this.checked.delete(id);
    this.deps.changed();
  }

  /** Checks `id` second by second from where it was left (or `since`) to `now`; true at the first `hit`. */
  private scan(id: bigint, symbol: string, since: number, now: number, hit: (time: number, price: string) => boolean): boolean {
    const from = Math.max(this.checked.get(id) ?? since, now - MAX_SCAN_MS);
    this.checked.set(id, now);
    for (let t = (Math.floor(from / SECOND_MS) + 1) * SECOND_MS; t <= now; t += SECOND_MS) {
      if (hit(t, this.price(symbol, t))) return true;
    }
    return false;
  }

  /** Fills what is left of the order at `price`; true, for `scan`. */
  private fillRest(account: SimAccount, order: SimOrder, price: string, maker: boolean, time: number): true {
    const rest = fromUnits(toUnits(order.origQty) - toUnits(order.executedQty));
    fillOrder(account, order, { qty: rest, price, maker, time }, this.deps.newId);
    account.live.orders.delete(order.orderId);
    return true;
  }

  /** The plan order triggers at `time`: it places its order (type and trigger price carried over) and is done. */
  private trigger(account: SimAccount, plan: SimPlanOrder, time: number): true {
    const order: SimOrder = {
      avgPrice: '0',
      clientOrderId: plan.clientAlgoId,
      cumQuote: '0',
      executedQty: '0',
      orderId: this.deps.newId(time),
      origQty: plan.quantity,
      price: plan.price,
      reduceOnly: plan.reduceOnly,
      side: plan.side,
      positionSide: plan.positionSide,
      status: 'NEW',
      stopPrice: plan.triggerPrice,
      symbol: plan.symbol,
      time,
      timeInForce: isMarket(plan.orderType) ? 'IOC' : plan.timeInForce,
      type: plan.orderType,
      updateTime: time,
      workingType: plan.workingType,
      priceProtect: false,
      priceMatch: 'NONE',
      selfTradePreventionMode: 'NONE',
      goodTillDate: 0,
    };
    Object.assign(plan, { algoStatus: 'TRIGGERED', actualOrderId: order.orderId, triggerTime: time, updateTime: time });
    account.live.plans.delete(plan.algoId);
    this.place(account, order, time);
    plan.actualPrice = order.avgPrice;
    return true;
  }
}

const isMarket = (type: string) => type === 'MARKET' || type.endsWith('_MARKET');

/** A limit order the price has reached: a buy at or above the price, a sell at or below it. */
function reaches(order: SimOrder, price: string): boolean {
  if (isMarket(order.type)) return false;
  const limit = toUnits(order.price);
  const last = toUnits(price);
  return order.side === 'BUY' ? last <= limit : last >= limit;
}

/** Take-profit sells above and buys below its trigger; stop (loss or entry) sells below and buys above it. */
function triggers(plan: SimPlanOrder, price: string): boolean {
  const trigger = toUnits(plan.triggerPrice);
  const last = toUnits(price);
  const takeProfit = plan.orderType.startsWith('TAKE_PROFIT');
  const above = plan.side === 'SELL' ? takeProfit : !takeProfit;
  return above ? last >= trigger : last <= trigger;
}
