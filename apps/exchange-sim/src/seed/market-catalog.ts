import { fromUnits, toUnits } from './decimal-units.js';

/** A perpetual contract the simulator knows, with a reference price its generated prices stay near [G]. */
export interface MarketSymbol {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  referencePrice: string;
  tickSize: string;
  stepSize: string;
  /** Generated order sizes are 1..maxSteps steps. */
  maxSteps: number;
  pricePrecision: number;
  quantityPrecision: number;
  maxLeverage: number;
  /** Order size limits in base units; contractVal is the minimum, as in ccxt's exchangeInfo capture [L]. */
  minOrderSize: string;
  maxOrderSize: string;
}

/** Contract fee rates of ccxt's exchangeInfo capture (weex.js: makerFeeRate 0.0002, takerFeeRate 0.0008) [L]. */
export const CONTRACT_FEES = { maker: '0.0002', taker: '0.0008' } as const;
/** Spot fee rates of ccxt's spot exchangeInfo capture (0.001 each) [L]. */
export const SPOT_FEES = { maker: '0.001', taker: '0.001' } as const;

export const MARKET_SYMBOLS: readonly MarketSymbol[] = [
  market('BTC', '96500', '0.1', '0.001', 500, 125),
  market('ETH', '3400', '0.01', '0.01', 300, 100),
  market('SOL', '190', '0.001', '0.1', 400, 75),
];

/** A known symbol, or one shaped like BTCUSDT for a symbol only a seed file uses. */
export function marketOf(symbol: string): MarketSymbol {
  const known = MARKET_SYMBOLS.find((m) => m.symbol === symbol);
  if (known) return known;
  const base = symbol.replace(/USDT$/, '');
  return { ...MARKET_SYMBOLS[0], symbol, baseAsset: base, referencePrice: '100' };
}

/** Spot coins and their numeric IDs; the real IDs are not documented [G]. */
export const SPOT_COINS = [
  { coinId: 1, coinName: 'BTC', price: '96500' },
  { coinId: 2, coinName: 'USDT', price: '1' },
  { coinId: 3, coinName: 'ETH', price: '3400' },
  { coinId: 4, coinName: 'SOL', price: '190' },
] as const;

export const tickUnits = (m: MarketSymbol) => toUnits(m.tickSize);
export const stepUnits = (m: MarketSymbol) => toUnits(m.stepSize);

function market(base: string, price: string, tick: string, step: string, maxSteps: number, maxLeverage: number): MarketSymbol {
  const decimals = (text: string) => text.split('.')[1]?.length ?? 0;
  return {
    symbol: `${base}USDT`,
    baseAsset: base,
    quoteAsset: 'USDT',
    referencePrice: price,
    tickSize: tick,
    stepSize: step,
    maxSteps,
    pricePrecision: decimals(tick),
    quantityPrecision: decimals(step),
    maxLeverage,
    minOrderSize: step,
    maxOrderSize: fromUnits(toUnits(step) * BigInt(maxSteps * 1000)),
  };
}
