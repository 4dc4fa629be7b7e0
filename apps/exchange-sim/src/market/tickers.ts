import { fromUnits, mulUnits } from '../seed/decimal-units.js';
import { MARKET_SYMBOLS, type MarketSymbol, marketOf, stepUnits, tickUnits } from '../seed/market-catalog.js';
import type { PriceFeed } from './price-feed.js';
import { DAY_MS } from '#libs/common';

const SAMPLE_MS = 15 * 60_000;
const FUNDING_MS = 8 * 3_600_000;

/** The symbols a market query names: one, or all when none is given; an unknown one matches nothing. */
export function marketsFor(symbol: string | undefined): MarketSymbol[] {
  return symbol === undefined ? [...MARKET_SYMBOLS] : MARKET_SYMBOLS.filter((m) => m.symbol === symbol);
}

/**
 * 24-hour statistics in the shape of ccxt's captures (weex.js fetchTickers): open 24 h ago, high and low sampled every
 * 15 minutes, a volume that follows the price; contract tickers add markPrice and indexPrice, spot ones the best book.
 */
export function ticker24h(feed: PriceFeed, m: MarketSymbol, now: number, host: 'contract' | 'spot'): Record<string, unknown> {
  const last = feed.unitsAt(m, now);
  const open = feed.unitsAt(m, now - DAY_MS);
  const samples = Array.from({ length: DAY_MS / SAMPLE_MS + 1 }, (_, i) => feed.unitsAt(m, now - i * SAMPLE_MS));
  const volume = stepUnits(m) * BigInt(m.maxSteps * 200);
  const common = {
    symbol: m.symbol,
    priceChange: fromUnits(last - open),
    priceChangePercent: fromUnits(((last - open) * 100_000_000n) / open),
    lastPrice: fromUnits(last),
  };
  const stats = {
    openPrice: fromUnits(open),
    highPrice: fromUnits(samples.reduce((a, b) => (b > a ? b : a))),
    lowPrice: fromUnits(samples.reduce((a, b) => (b < a ? b : a))),
    volume: fromUnits(volume),
    quoteVolume: fromUnits(mulUnits(volume, last)),
    openTime: now - DAY_MS,
    closeTime: now,
  };
  if (host === 'spot') return { ...common, ...book(m, last), ...stats, count: m.maxSteps * 37 };
  return { ...common, ...stats, markPrice: fromUnits(last), indexPrice: fromUnits(last + tickUnits(m)) };
}

/** Best bid and ask one tick either side of the last price. */
export function book(m: MarketSymbol, last: bigint): Record<string, string> {
  const qty = fromUnits(stepUnits(m) * 10n);
  return { bidPrice: fromUnits(last - tickUnits(m)), bidQty: qty, askPrice: fromUnits(last + tickUnits(m)), askQty: qty };
}

/** `limit` levels each side, one tick apart, around the last price (GET .../market/depth). */
export function depth(feed: PriceFeed, symbol: string, now: number, limit: number): Record<string, unknown> {
  const m = marketOf(symbol);
  const last = feed.unitsAt(m, now);
  const level = (i: number, sign: bigint) => [fromUnits(last + sign * BigInt(i + 1) * tickUnits(m)), fromUnits(stepUnits(m) * BigInt(i + 1))];
  return {
    asks: Array.from({ length: limit }, (_, i) => level(i, 1n)),
    bids: Array.from({ length: limit }, (_, i) => level(i, -1n)),
    lastUpdateId: Math.floor(now / 100),
  };
}

/** Mark price and funding (GET /capi/v3/market/premiumIndex), as ccxt's capture shows them; funding every 8 h [L]. */
export function premiumIndex(feed: PriceFeed, m: MarketSymbol, now: number): Record<string, unknown> {
  const mark = feed.unitsAt(m, now);
  return {
    symbol: m.symbol,
    markPrice: fromUnits(mark),
    indexPrice: fromUnits(mark + tickUnits(m)),
    forecastFundingRate: '0.0001',
    lastFundingRate: '0.0001',
    interestRate: '0.001',
    nextFundingTime: Math.ceil((now + 1) / FUNDING_MS) * FUNDING_MS,
    time: now,
    collectCycle: FUNDING_MS / 60_000,
  };
}
