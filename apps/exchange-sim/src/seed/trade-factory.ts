import type { SimOrder, SimTrade } from '../state/order-records.js';
import { fromUnits, mulUnits, toUnits } from './decimal-units.js';
import { MARKET_SYMBOLS, marketOf, stepUnits } from './market-catalog.js';
import { HISTORY_DAYS, type SeedContext } from './seed-context.js';

/** Fee rates in units of 1e-8: 0.02 % maker, 0.06 % taker [G]. */
const MAKER_FEE = 20_000n;
const TAKER_FEE = 60_000n;

/** One fill; commission and quoteQty follow price and qty unless `hints` give them. */
export function makeTrade(ctx: SeedContext, hints: Partial<SimTrade> = {}): SimTrade {
  const { rng } = ctx;
  const market = marketOf(hints.symbol ?? rng.pick(MARKET_SYMBOLS).symbol);
  const side = hints.side ?? rng.pick(['BUY', 'SELL']);
  const positionSide = hints.positionSide ?? rng.pick(['LONG', 'SHORT']);
  const time = hints.time ?? ctx.timeWithin(HISTORY_DAYS);
  const price = hints.price ?? ctx.price(market);
  const qty = hints.qty ?? ctx.quantity(market);
  const maker = hints.maker ?? rng.chance(0.5);
  const quoteQty = mulUnits(toUnits(price), toUnits(qty));
  const closing = (side === 'BUY') === (positionSide === 'SHORT');
  // A close realises between -3 % and +5 % of its value; an open realises nothing.
  const pnl = closing ? (quoteQty * BigInt(rng.int(-300, 500))) / 10_000n : 0n;
  return {
    id: ctx.id(time),
    orderId: ctx.id(time),
    symbol: market.symbol,
    buyer: side === 'BUY',
    commission: fromUnits(mulUnits(quoteQty, maker ? MAKER_FEE : TAKER_FEE)),
    commissionAsset: 'USDT',
    maker,
    price,
    qty,
    quoteQty: fromUnits(quoteQty),
    realizedPnl: fromUnits(pnl),
    side,
    positionSide,
    time,
    ...hints,
  };
}

/** The fills of an order: 1-3 trades at its avgPrice whose qty sums to its executedQty exactly. */
export function tradesFor(ctx: SeedContext, order: SimOrder): SimTrade[] {
  const executed = toUnits(order.executedQty);
  if (executed <= 0n) return [];
  const step = stepUnits(marketOf(order.symbol));
  const lots = executed / step;
  const count = executed % step === 0n ? Math.min(Number(lots), ctx.rng.int(1, 3)) : 1;
  const sizes = split(ctx, executed, count, step);
  const span = Math.max(0, order.updateTime - order.time);
  let time = order.time;
  return sizes.map((size, i) => {
    const step = ctx.rng.int(0, Math.floor(span / count));
    time = i === sizes.length - 1 ? order.updateTime : Math.min(order.updateTime, time + step);
    return makeTrade(ctx, {
      orderId: order.orderId,
      symbol: order.symbol,
      side: order.side,
      positionSide: order.positionSide,
      price: order.avgPrice,
      qty: fromUnits(size),
      maker: order.type === 'LIMIT',
      time,
    });
  });
}

/** `count` positive multiples of `step` summing to `total`; `count` is 1 when total is not a multiple of step. */
function split(ctx: SeedContext, total: bigint, count: number, step: bigint): bigint[] {
  const sizes: bigint[] = [];
  let left = total;
  for (let i = count; i > 1; i--) {
    const lots = Number(left / step) - (i - 1);
    const size = step * BigInt(ctx.rng.int(1, Math.max(1, Math.floor(lots / 2))));
    sizes.push(size);
    left -= size;
  }
  return [...sizes, left];
}
