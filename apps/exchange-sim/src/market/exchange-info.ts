import { CONTRACT_FEES, MARKET_SYMBOLS, SPOT_COINS, SPOT_FEES } from '../seed/market-catalog.js';

/** Budgets WEEX documented in one version (500 per 10 s); the simulator's own budgets replace it when present. */
export const DEFAULT_RATE_LIMITS = [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'SECOND', intervalNum: 10, limit: 500 }];

/**
 * GET /capi/v3/market/exchangeInfo. The rateLimits fields are documented (weex-facts [C]); each symbol carries the
 * fields of ccxt's capture (weex.js parseMarket: contractVal, precisions as strings, fee rates, order size limits) [L].
 */
export function exchangeInfo(serverTime: number, rateLimits: readonly unknown[] | undefined): Record<string, unknown> {
  return {
    timezone: 'UTC',
    serverTime,
    rateLimits: rateLimits && rateLimits.length > 0 ? rateLimits : DEFAULT_RATE_LIMITS,
    symbols: MARKET_SYMBOLS.map((m) => ({
      symbol: m.symbol,
      baseAsset: m.baseAsset,
      quoteAsset: m.quoteAsset,
      marginAsset: m.quoteAsset,
      pricePrecision: String(m.pricePrecision),
      quantityPrecision: String(m.quantityPrecision),
      baseAssetPrecision: String(m.quantityPrecision),
      quotePrecision: '8',
      contractVal: m.minOrderSize,
      delivery: ['00:00:00', '08:00:00', '16:00:00'],
      forwardContractFlag: true,
      minLeverage: '1',
      maxLeverage: String(m.maxLeverage),
      buyLimitPriceRatio: '0.01',
      sellLimitPriceRatio: '0.01',
      makerFeeRate: CONTRACT_FEES.maker,
      takerFeeRate: CONTRACT_FEES.taker,
      minOrderSize: m.minOrderSize,
      maxOrderSize: m.maxOrderSize,
      maxPositionSize: m.maxOrderSize,
      marketOpenLimitSize: m.maxOrderSize,
    })),
  };
}

/** GET /api/v3/exchangeInfo on the spot host, with the fields of ccxt's spot capture [L]. */
export function spotExchangeInfo(serverTime: number): Record<string, unknown> {
  return {
    timezone: 'UTC',
    serverTime,
    symbols: MARKET_SYMBOLS.map((m) => ({
      symbol: m.symbol,
      status: 'TRADING',
      baseAsset: m.baseAsset,
      baseAssetPrecision: '8',
      quoteAsset: m.quoteAsset,
      quoteAssetPrecision: '8',
      tickSize: m.tickSize,
      stepSize: m.stepSize,
      minTradeAmount: m.minOrderSize,
      maxTradeAmount: m.maxOrderSize,
      takerFeeRate: SPOT_FEES.taker,
      makerFeeRate: SPOT_FEES.maker,
      buyLimitPriceRatio: '0.1',
      sellLimitPriceRatio: '0.1',
      marketBuyLimitSize: m.maxOrderSize,
      marketSellLimitSize: m.maxOrderSize,
      marketFallbackPriceRatio: '0',
      enableTrade: true,
      enableDisplay: true,
      displayDigitMerge: m.tickSize,
      displayNew: false,
      displayHot: false,
    })),
  };
}

/** GET /api/v3/coins: each spot coin with one network, in the shape of ccxt's capture (weex.js fetchCurrencies) [L]. */
export function spotCoins(): Record<string, unknown>[] {
  return SPOT_COINS.map((c) => ({
    coin: c.coinName,
    depositAllEnable: true,
    withdrawAllEnable: true,
    name: c.coinName,
    networkList: [
      {
        network: c.coinName === 'USDT' ? 'TRC20' : c.coinName,
        coin: c.coinName,
        withdrawIntegerMultiple: '0.00000001',
        isDefault: true,
        depositEnable: true,
        withdrawEnable: true,
        depositDesc: null,
        withdrawDesc: null,
        name: c.coinName,
        withdrawFee: '0',
        withdrawMin: '0',
        depositDust: '0',
        minConfirm: 1,
        withdrawTag: false,
        contractAddressUrl: '',
        contractAddress: '',
      },
    ],
  }));
}
