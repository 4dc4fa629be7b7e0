import { stringifyJson } from '#libs/common';
import type { Order, PlanOrder, Trade } from '#libs/weex-client';

/** Columns of one exchange_orders row; IDs as digit strings, times as ISO text, so nothing passes through a JS number. */
export interface OrderRow {
  orderId: string;
  symbol: string;
  side: string;
  type: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  data: string;
}

export interface PlanOrderRow {
  algoId: string;
  /** Null until the plan order has placed an order (the exchange sends 0 until then). */
  actualOrderId: string | null;
  symbol: string;
  algoStatus: string;
  createdAt: string;
  updatedAt: string;
  data: string;
}

export interface TradeRow {
  tradeId: string;
  orderId: string;
  symbol: string;
  time: string;
  data: string;
}

const isId = (value: unknown): value is string => typeof value === 'string' && /^\d{1,19}$/.test(value) && BigInt(value) > 0n;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** The first of the times that the record actually carries (history items may carry a subset of the fields). */
const iso = (...times: unknown[]): string => {
  const time = times.find((t): t is number => typeof t === 'number' && Number.isFinite(t) && t > 0);
  return new Date(time ?? Date.now()).toISOString();
};

/** Undefined for an order without a usable ID, which cannot be stored or linked. */
export function orderRow(order: Order): OrderRow | undefined {
  if (!isId(order.orderId)) return undefined;
  return {
    orderId: order.orderId,
    symbol: text(order.symbol),
    side: text(order.side),
    type: text(order.type),
    status: text(order.status),
    createdAt: iso(order.time, order.updateTime),
    updatedAt: iso(order.updateTime, order.time),
    data: stringifyJson(order),
  };
}

export function planOrderRow(plan: PlanOrder): PlanOrderRow | undefined {
  if (!isId(plan.algoId)) return undefined;
  return {
    algoId: plan.algoId,
    actualOrderId: isId(plan.actualOrderId) ? plan.actualOrderId : null,
    symbol: text(plan.symbol),
    algoStatus: text(plan.algoStatus),
    createdAt: iso(plan.createTime, plan.updateTime),
    updatedAt: iso(plan.updateTime, plan.triggerTime, plan.createTime),
    data: stringifyJson(plan),
  };
}

export function tradeRow(trade: Trade): TradeRow | undefined {
  if (!isId(trade.id) || !isId(trade.orderId)) return undefined;
  return { tradeId: trade.id, orderId: trade.orderId, symbol: text(trade.symbol), time: iso(trade.time), data: stringifyJson(trade) };
}

/**
 * One row per key (one INSERT ... ON CONFLICT may not touch a row twice): of two rows with the same key, the one with
 * the later `version` (ISO time), or else the one seen last.
 */
export function uniqueBy<T>(rows: readonly (T | undefined)[], key: (row: T) => string, version: (row: T) => string = () => ''): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) {
    if (row === undefined) continue;
    const seen = byKey.get(key(row));
    if (!seen || version(row) >= version(seen)) byKey.set(key(row), row);
  }
  return [...byKey.values()];
}
