import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { weex } from 'ccxt';
import { README_SAMPLE_ORDER_ID, type RunningSimulator, defaultSimAccounts, startSimulator } from '../apps/exchange-sim/src/index.js';
import { ccxtWeex } from './support/ccxt-weex.js';

// docs/weex-ccxt-facts.md, "ccxt's unified methods against the sandbox": each row says whether the method works on
// the sandbox. Every row is called here as a ccxt user would call it, so the table stays true.
const BTC = 'BTC/USDT:USDT';
const SWAP = { type: 'swap' };

function documentedMethods(): Map<string, 'works' | 'no'> {
  const doc = readFileSync(join(import.meta.dirname, '../docs/weex-ccxt-facts.md'), 'utf8');
  const section = doc.slice(doc.indexOf("## ccxt's unified methods against the sandbox"));
  return new Map([...section.matchAll(/^\| `(\w+)` \| (works|no) \|/gm)].map(([, method, verdict]) => [method, verdict as 'works' | 'no']));
}

let sim: RunningSimulator;
let exchange: weex;
let last: number;
beforeAll(async () => {
  sim = await startSimulator({ accounts: defaultSimAccounts() });
  exchange = ccxtWeex(sim);
  await exchange.loadMarkets();
  last = (await exchange.fetchTicker(BTC)).last!;
});
afterAll(async () => {
  await sim?.close();
});

/** How to call each method: a resting limit buy at half the price, so that it stays open until cancelled. */
function recipes(e: weex): Record<string, () => Promise<unknown>> {
  const resting = (params = {}) => e.createOrder(BTC, 'limit', 'buy', 0.01, Math.round(last / 2), params);
  const any = e as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return {
    cancelAllOrders: async () => (await resting(), e.cancelAllOrders(BTC)),
    cancelOrder: async () => e.cancelOrder(String((await resting()).id), BTC),
    cancelOrders: async () => e.cancelOrders([String((await resting()).id)], BTC),
    cancelOrderWithClientOrderId: async () => (await resting({ clientOrderId: 'unified-cancel' }), any.cancelOrderWithClientOrderId('unified-cancel', BTC)),
    createLimitBuyOrder: () => e.createLimitBuyOrder(BTC, 0.01, Math.round(last / 2)),
    createLimitOrder: () => e.createLimitOrder(BTC, 'buy', 0.01, Math.round(last / 2)),
    createLimitSellOrder: () => e.createLimitSellOrder(BTC, 0.01, Math.round(last * 2)),
    createMarketBuyOrder: () => e.createMarketBuyOrder(BTC, 0.01),
    createMarketOrder: () => e.createMarketOrder(BTC, 'buy', 0.01),
    createMarketSellOrder: () => e.createMarketSellOrder(BTC, 0.01),
    createOrder: () => resting(),
    createOrderWithTakeProfitAndStopLoss: () =>
      e.createOrderWithTakeProfitAndStopLoss(BTC, 'limit', 'buy', 0.01, Math.round(last * 0.9), Math.round(last * 1.2), Math.round(last * 0.8)),
    createReduceOnlyOrder: () => e.createReduceOnlyOrder(BTC, 'market', 'sell', 0.01),
    createStopLossOrder: () => e.createStopLossOrder(BTC, 'market', 'sell', 0.01, undefined, Math.round(last * 0.8)),
    createTakeProfitOrder: () => e.createTakeProfitOrder(BTC, 'market', 'sell', 0.01, undefined, Math.round(last * 1.2)),
    createTriggerOrder: () => e.createTriggerOrder(BTC, 'market', 'buy', 0.01, undefined, Math.round(last * 1.1)),
    fetchBalance: () => e.fetchBalance(SWAP),
    fetchBidsAsks: () => e.fetchBidsAsks([BTC]),
    fetchCanceledAndClosedOrders: () => e.fetchCanceledAndClosedOrders(BTC),
    fetchCanceledOrders: () => e.fetchCanceledOrders(BTC),
    fetchClosedOrders: () => e.fetchClosedOrders(BTC),
    fetchCurrencies: () => e.fetchCurrencies(),
    fetchFundingHistory: () => e.fetchFundingHistory(BTC),
    fetchFundingRate: () => e.fetchFundingRate(BTC),
    fetchFundingRates: () => e.fetchFundingRates([BTC]),
    fetchLedger: () => e.fetchLedger('USDT', undefined, 100, SWAP),
    fetchLeverage: () => e.fetchLeverage(BTC),
    fetchLeverages: () => e.fetchLeverages([BTC]),
    fetchMarginMode: () => e.fetchMarginMode(BTC),
    fetchMarginModes: () => e.fetchMarginModes([BTC]),
    fetchMarkets: () => e.fetchMarkets(),
    fetchMarkPrice: () => e.fetchMarkPrice(BTC),
    fetchMarkPrices: () => e.fetchMarkPrices([BTC]),
    fetchMyTrades: () => e.fetchMyTrades(BTC),
    fetchOpenOrders: () => e.fetchOpenOrders(BTC),
    fetchOrder: () => e.fetchOrder(String(README_SAMPLE_ORDER_ID), BTC),
    fetchOrderBook: () => e.fetchOrderBook(BTC),
    fetchOrderTrades: () => e.fetchOrderTrades(String(README_SAMPLE_ORDER_ID), BTC),
    fetchOrderWithClientOrderId: async () => (await resting({ clientOrderId: 'unified-fetch' }), any.fetchOrderWithClientOrderId('unified-fetch', BTC)),
    fetchPosition: () => e.fetchPosition(BTC),
    fetchPositionMode: () => e.fetchPositionMode(BTC),
    fetchPositions: () => e.fetchPositions(),
    fetchPositionsForSymbol: () => e.fetchPositionsForSymbol(BTC),
    fetchStatus: () => e.fetchStatus(),
    fetchTicker: () => e.fetchTicker(BTC),
    fetchTickers: () => e.fetchTickers([BTC]),
    fetchTime: () => e.fetchTime(),
    fetchTradingFee: () => e.fetchTradingFee(BTC),
    addMargin: () => e.addMargin(BTC, 1, { positionId: '1' }),
    reduceMargin: () => e.reduceMargin(BTC, 1, { positionId: '1' }),
    closeAllPositions: () => e.closeAllPositions(),
    closePosition: () => e.closePosition(BTC),
    setLeverage: () => e.setLeverage(10, BTC),
    setMarginMode: () => e.setMarginMode('cross', BTC),
    setPositionMode: () => e.setPositionMode(false, BTC, { marginMode: 'cross' }),
    fetchOHLCV: () => e.fetchOHLCV(BTC, '1m'),
    fetchIndexOHLCV: () => e.fetchIndexOHLCV(BTC, '1m'),
    fetchMarkOHLCV: () => e.fetchMarkOHLCV(BTC, '1m'),
    fetchTrades: () => e.fetchTrades(BTC),
    fetchFundingRateHistory: () => e.fetchFundingRateHistory(BTC),
    fetchOpenInterest: () => e.fetchOpenInterest(BTC),
    fetchTransfers: () => e.fetchTransfers(),
    fetchLastPrices: () => e.fetchLastPrices([BTC]),
    fetchOrders: () => e.fetchOrders(BTC),
    createMarketOrderWs: () => any.createMarketOrderWs(BTC, 'buy', 0.01),
  };
}

describe("ccxt's unified methods against the sandbox, as docs/weex-ccxt-facts.md lists them", () => {
  const documented = documentedMethods();

  it('lists every method ccxt declares for weex, and only those', () => {
    const declared = Object.entries(ccxtWeex({ url: 'http://127.0.0.1:1', spotUrl: 'http://127.0.0.1:1' }).has)
      .filter(([method, has]) => has === true && typeof (exchange as unknown as Record<string, unknown>)[method] === 'function')
      .map(([method]) => method);
    expect([...documented.keys()].sort()).toEqual(declared.sort());
  });

  it.each([...documentedMethods()])('%s: %s', async (method, verdict) => {
    const call = recipes(exchange)[method];
    expect(call).toBeDefined();
    if (verdict === 'works') {
      await expect(call()).resolves.toBeDefined();
      return;
    }
    // A refusal by the exchange (the sandbox does not serve it) or by ccxt itself; never a network failure.
    const error = await call().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.constructor.name).toMatch(/^(ExchangeError|NotSupported|BadRequest)$/);
  });
});
