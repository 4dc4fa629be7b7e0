import { Controller, Get, Inject } from '@nestjs/common';
import { OPERATIONS } from '#libs/weex-client';
import { v2Success } from '../http/envelope.js';
import { type Clock, SIM_CLOCK } from '../sim-clock.js';
import { SimState } from '../state/sim-state.js';
import { exchangeInfo } from './exchange-info.js';

/** Public market endpoints (no authentication). */
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
}
