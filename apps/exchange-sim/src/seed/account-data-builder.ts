import type { AccountData, AccountDataSeed } from '../state/account-data.js';
import type { SimOrder } from '../state/order-records.js';
import { generateIncome, makeIncome } from './income-factory.js';
import { generateOrders, makeOrder } from './order-factory.js';
import { generatePlanOrders, makePlanOrder, markTriggeredOrders } from './plan-order-factory.js';
import { generatePositions, makePosition } from './position-factory.js';
import { HOUR_MS, SeedContext } from './seed-context.js';
import { fromSeedRecords } from './seed-records.js';
import { generateSpotBills, makeSpotBill } from './spot-bill-factory.js';
import { makeSymbolConfig, symbolConfigsFor } from './symbol-config-factory.js';
import { makeTrade, tradesFor } from './trade-factory.js';

/**
 * An account's exchange data, generated from its UID (the same UID and `now` give the same data) around what `seed`
 * supplies. Each kind the seed leaves out is generated from the kinds before it, so generated trades belong to the
 * orders in force (seeded or generated), plan orders trigger those orders, and the income ledger books those trades.
 * `extraOrders` are added to generated orders, an hour old unless they say (the README's sample order).
 */
export function buildAccountData(uid: string, now: number, seed: AccountDataSeed = {}, extraOrders: readonly Partial<SimOrder>[] = []): AccountData {
  const ctx = new SeedContext(`weex-sim:${uid}`, now);
  type Make<T> = (c: SeedContext, hints: Partial<T>) => T;
  const given = <T extends object>(kind: keyof AccountDataSeed, make: Make<T>): T[] | undefined =>
    seed[kind] === undefined ? undefined : fromSeedRecords(`account ${uid}: ${kind}`, seed[kind], (hints: Partial<T>) => make(ctx, hints));

  const orders = given('orders', makeOrder) ?? [...generateOrders(ctx), ...extraOrders.map((hints) => makeOrder(ctx, { time: now - HOUR_MS, ...hints }))];
  const trades = given('trades', makeTrade) ?? orders.flatMap((o) => tradesFor(ctx, o));
  const positions = given('positions', makePosition) ?? generatePositions(ctx);
  const planOrders = given('planOrders', makePlanOrder) ?? generatePlanOrders(ctx, orders);
  if (seed.orders === undefined && seed.planOrders === undefined) markTriggeredOrders(orders, planOrders);
  return {
    orders,
    trades,
    positions,
    symbolConfigs: given('symbolConfigs', makeSymbolConfig) ?? symbolConfigsFor(ctx, positions),
    planOrders,
    income: given('income', makeIncome) ?? generateIncome(ctx, trades, positions),
    spotBills: given('spotBills', makeSpotBill) ?? generateSpotBills(ctx),
  };
}
