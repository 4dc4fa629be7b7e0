import { OPEN_ORDER_STATUSES, type SimOrder } from '../state/order-records.js';
import { fromUnits, mulUnits, toUnits } from './decimal-units.js';
import { MARKET_SYMBOLS, marketOf, stepUnits } from './market-catalog.js';
import { DAY_MS, HISTORY_DAYS, HOUR_MS, MINUTE_MS, type SeedContext } from './seed-context.js';

const HISTORY_ORDERS = 150;
const OPEN_ORDERS = 6;

/**
 * One order, consistent in itself: executedQty follows the status, cumQuote = avgPrice × executedQty. Fields given in
 * `hints` are kept and drive the rest (a FILLED order of origQty 2 gets executedQty 2).
 */
export function makeOrder(ctx: SeedContext, hints: Partial<SimOrder> = {}): SimOrder {
  const { rng } = ctx;
  const market = marketOf(hints.symbol ?? rng.pick(MARKET_SYMBOLS).symbol);
  const status = hints.status ?? 'FILLED';
  const type = hints.type ?? (status === 'FILLED' && rng.chance(0.3) ? 'MARKET' : 'LIMIT');
  const positionSide = hints.positionSide ?? rng.pick(['LONG', 'SHORT']);
  const closing = hints.side ? (hints.side === 'BUY') === (positionSide === 'SHORT') : rng.chance(0.4);
  const side = hints.side ?? ((positionSide === 'LONG') !== closing ? 'BUY' : 'SELL');
  const time = hints.time ?? ctx.timeWithin(HISTORY_DAYS);
  // Partial fills need at least two lots.
  const origQty = hints.origQty ?? fromUnits(toUnits(ctx.quantity(market)) + stepUnits(market));
  const price = hints.price ?? (type === 'MARKET' ? '0' : ctx.price(market));
  const executedQty = hints.executedQty ?? executedFor(ctx, status, origQty, stepUnits(market));
  const filled = toUnits(executedQty) !== 0n;
  const avgPrice = hints.avgPrice ?? (!filled ? '0' : toUnits(price) === 0n ? ctx.price(market) : price);
  const open = OPEN_ORDER_STATUSES.includes(status);
  return {
    avgPrice,
    clientOrderId: `ai-${rng.hex(16)}`,
    cumQuote: fromUnits(mulUnits(toUnits(executedQty), toUnits(avgPrice))),
    executedQty,
    orderId: ctx.id(time),
    origQty,
    price,
    reduceOnly: closing,
    side,
    positionSide,
    status,
    stopPrice: '0',
    symbol: market.symbol,
    time,
    timeInForce: type === 'LIMIT' && status === 'EXPIRED' ? 'IOC' : 'GTC',
    type,
    updateTime: status === 'NEW' ? time : Math.min(ctx.now, time + rng.int(1_000, 6 * HOUR_MS)),
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    priceMatch: 'NONE',
    selfTradePreventionMode: open ? rng.pick(['NONE', 'EXPIRE_MAKER']) : 'NONE',
    goodTillDate: 0,
    ...hints,
  };
}

/** ~150 final orders over the last 120 days and a few open ones from the last 3 days, newest last. */
export function generateOrders(ctx: SeedContext): SimOrder[] {
  const { rng } = ctx;
  const history = Array.from({ length: HISTORY_ORDERS }, () => {
    const roll = rng.next();
    const status = roll < 0.7 ? 'FILLED' : roll < 0.92 ? 'CANCELED' : 'EXPIRED';
    // At least 10 minutes old, so the order is final well before now.
    return makeOrder(ctx, { status, time: ctx.timeWithin(HISTORY_DAYS) - 10 * MINUTE_MS });
  });
  const open = Array.from({ length: OPEN_ORDERS }, (_, i) => {
    const time = ctx.now - rng.int(MINUTE_MS, 3 * DAY_MS);
    return makeOrder(ctx, { status: i < 4 ? 'NEW' : 'PARTIALLY_FILLED', type: 'LIMIT', time });
  });
  return [...history, ...open].sort((a, b) => a.time - b.time);
}

function executedFor(ctx: SeedContext, status: string, origQty: string, step: bigint): string {
  const lots = toUnits(origQty) / step;
  if (status === 'FILLED') return origQty;
  const partial = status === 'PARTIALLY_FILLED' || (status === 'CANCELED' && ctx.rng.chance(0.3));
  if (!partial || lots < 2n) return '0';
  return fromUnits(step * BigInt(ctx.rng.int(1, Number(lots) - 1)));
}
