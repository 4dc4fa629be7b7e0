import { Controller, Get, Inject, Query } from '@nestjs/common';
import { OPERATIONS } from '#libs/weex-client';
import { v2Success } from '../http/envelope.js';
import { RequestParams } from '../http/request-params.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import { SimState } from '../state/sim-state.js';
import { marketParam } from '../trading/order-requests.js';
import { exchangeInfo } from './exchange-info.js';
import { book, depth, marketsFor, premiumIndex, ticker24h } from './tickers.js';

/** Public contract market endpoints (no authentication): time, exchangeInfo, and prices from the simulated feed. */
@Controller()
export class MarketController {
  constructor(
    @Inject(SIM_CLOCK) private readonly clock: Clock,
    private readonly state: SimState,
  ) {}

  @Get(OPERATIONS.serverTime.path)
  timeV3(): Record<string, unknown> {
    return { serverTime: this.clock() };
  }

  // v2 server time is not in the operations table: the client reads v3 time only.
  @Get('/capi/v2/market/time')
  timeV2(): Record<string, unknown> {
    const now = this.clock();
    return v2Success(now, now);
  }

  @Get(OPERATIONS.exchangeInfo.path)
  exchangeInfo(): Record<string, unknown> {
    return exchangeInfo(this.clock(), this.state.rateLimits);
  }

  @Get('/capi/v3/market/ticker/24hr')
  tickers(@Query() query: unknown): Record<string, unknown>[] {
    const now = this.clock();
    return marketsFor(RequestParams.fromQuery(query).v3Symbol()).map((m) => ticker24h(this.state.prices, m, now, 'contract'));
  }

  @Get('/capi/v3/market/ticker/bookTicker')
  bookTickers(@Query() query: unknown): Record<string, unknown>[] {
    const now = this.clock();
    return marketsFor(RequestParams.fromQuery(query).v3Symbol()).map((m) => ({ symbol: m.symbol, ...book(m, this.state.prices.unitsAt(m, now)), time: now }));
  }

  /** ccxt fetchMarkPrice: `{ symbol, price, time }`; mark and index are one simulated price (index a tick above). */
  @Get('/capi/v3/market/symbolPrice')
  symbolPrice(@Query() query: unknown): Record<string, unknown> {
    const now = this.clock();
    const params = RequestParams.fromQuery(query);
    const market = marketParam(params);
    const index = premiumIndex(this.state.prices, market, now);
    const priceType = params.oneOf('priceType', ['MARK', 'INDEX']) ?? 'INDEX';
    return { symbol: market.symbol, price: priceType === 'MARK' ? index.markPrice : index.indexPrice, time: now };
  }

  @Get('/capi/v3/market/premiumIndex')
  premiumIndex(@Query() query: unknown): Record<string, unknown>[] {
    const now = this.clock();
    return marketsFor(RequestParams.fromQuery(query).v3Symbol()).map((m) => premiumIndex(this.state.prices, m, now));
  }

  @Get('/capi/v3/market/depth')
  depth(@Query() query: unknown): Record<string, unknown> {
    const params = RequestParams.fromQuery(query);
    return depth(this.state.prices, marketParam(params).symbol, this.clock(), params.int('limit', { min: 1, max: 200, fallback: 15 }));
  }
}
