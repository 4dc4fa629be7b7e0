import { Controller, Get, Inject, Query } from '@nestjs/common';
import { RequestParams } from '../http/request-params.js';
import { spotCoins, spotExchangeInfo } from '../market/exchange-info.js';
import { book, depth, marketsFor, ticker24h } from '../market/tickers.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import { SimState } from '../state/sim-state.js';
import { marketParam } from '../trading/order-requests.js';

/**
 * Public spot endpoints ccxt's loadMarkets and tickers read (weex.js api.public): enough for ccxt to load the spot
 * markets beside the contract ones. Spot prices follow the contract feed.
 */
@Controller()
export class SpotMarketController {
  constructor(
    @Inject(SIM_CLOCK) private readonly clock: Clock,
    private readonly state: SimState,
  ) {}

  @Get('/api/v3/time')
  time(): Record<string, unknown> {
    return { serverTime: this.clock() };
  }

  /** ccxt fetchStatus: an empty object while the exchange is up (weex.js). */
  @Get('/api/v3/ping')
  ping(): Record<string, unknown> {
    return {};
  }

  @Get('/api/v3/coins')
  coins(): Record<string, unknown>[] {
    return spotCoins();
  }

  @Get('/api/v3/exchangeInfo')
  exchangeInfo(): Record<string, unknown> {
    return spotExchangeInfo(this.clock());
  }

  @Get('/api/v3/market/ticker/24hr')
  tickers(@Query() query: unknown): Record<string, unknown>[] {
    const now = this.clock();
    return marketsFor(RequestParams.fromQuery(query).v3Symbol()).map((m) => ticker24h(this.state.prices, m, now, 'spot'));
  }

  @Get('/api/v3/market/ticker/price')
  prices(@Query() query: unknown): Record<string, unknown>[] {
    const now = this.clock();
    return marketsFor(RequestParams.fromQuery(query).v3Symbol()).map((m) => ({ symbol: m.symbol, price: this.state.prices.priceAt(m.symbol, now) }));
  }

  @Get('/api/v3/market/ticker/bookTicker')
  bookTickers(@Query() query: unknown): Record<string, unknown>[] {
    const now = this.clock();
    return marketsFor(RequestParams.fromQuery(query).v3Symbol()).map((m) => ({ symbol: m.symbol, ...book(m, this.state.prices.unitsAt(m, now)) }));
  }

  @Get('/api/v3/market/depth')
  depth(@Query() query: unknown): Record<string, unknown> {
    const params = RequestParams.fromQuery(query);
    return depth(this.state.prices, marketParam(params).symbol, this.clock(), params.int('limit', { min: 1, max: 200, fallback: 15 }));
  }
}
