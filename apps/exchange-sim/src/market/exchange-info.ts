import { MARKET_SYMBOLS } from '../seed/market-catalog.js';

/** Budgets WEEX documented in one version (500 per 10 s); the simulator's own budgets replace it when present. */
export const DEFAULT_RATE_LIMITS = [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'SECOND', intervalNum: 10, limit: 500 }];

/**
 * GET /capi/v3/market/exchangeInfo. The rateLimits fields are documented (weex-facts [C]); the symbol fields are not
 * in the spec and follow Binance-style futures APIs [G].
 */
export function exchangeInfo(serverTime: number, rateLimits: readonly unknown[] | undefined): Record<string, unknown> {
  return {
    timezone: 'UTC',
    serverTime,
    rateLimits: rateLimits && rateLimits.length > 0 ? rateLimits : DEFAULT_RATE_LIMITS,
    symbols: MARKET_SYMBOLS.map((m) => ({
      symbol: m.symbol,
      status: 'TRADING',
      contractType: 'PERPETUAL',
      baseAsset: m.baseAsset,
      quoteAsset: m.quoteAsset,
      marginAsset: m.quoteAsset,
      pricePrecision: m.pricePrecision,
      quantityPrecision: m.quantityPrecision,
      tickSize: m.tickSize,
      stepSize: m.stepSize,
      minQty: m.stepSize,
      minLeverage: 1,
      maxLeverage: m.maxLeverage,
    })),
  };
}
