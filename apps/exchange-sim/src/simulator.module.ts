import { type DynamicModule, Module } from '@nestjs/common';
import type { WeexHost } from '#libs/weex-client';
import { AccountModule } from './account/account.module.js';
import { AiLogModule } from './ai-log/ai-log.module.js';
import { WeexAuthGuard } from './auth/weex-auth.guard.js';
import { WeexAuthService } from './auth/weex-auth.service.js';
import { FaultsModule } from './faults/faults.module.js';
import { InspectionModule } from './inspection/inspection.module.js';
import { LimitsModule } from './limits/limits.module.js';
import { MarketModule } from './market/market.module.js';
import { OrdersModule } from './orders/orders.module.js';
import { type Clock, SIM_CLOCK } from './sim-clock.js';
import { SpotModule } from './spot/spot.module.js';
import { SimState } from './state/sim-state.js';
import { TradesModule } from './trades/trades.module.js';
import { TradingModule } from './trading/trading.module.js';

/** Root module: shares the state, the clock and authentication with one module per area. */
@Module({})
export class SimulatorModule {
  /** `host` picks the paths served: the contract host's, or the spot host's (spot bills); default contract. */
  static forRoot(deps: { state: SimState; clock: Clock; host?: WeexHost }): DynamicModule {
    const contract = [MarketModule, AiLogModule, InspectionModule, FaultsModule, LimitsModule];
    return {
      module: SimulatorModule,
      global: true,
      imports: deps.host === 'spot' ? [SpotModule] : [...contract, AccountModule, OrdersModule, TradesModule, TradingModule],
      providers: [{ provide: SimState, useValue: deps.state }, { provide: SIM_CLOCK, useValue: deps.clock }, WeexAuthService, WeexAuthGuard],
      exports: [SimState, SIM_CLOCK, WeexAuthService, WeexAuthGuard],
    };
  }
}
