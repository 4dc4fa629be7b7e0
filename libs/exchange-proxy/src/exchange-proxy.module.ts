import { Module } from '@nestjs/common';
import { WeexModule } from '#libs/weex-nest';
import { ExchangeCallService } from './exchange-call.service.js';
import { ExchangeService } from './exchange.service.js';

/**
 * What the account and order endpoints need: the exchange client of each account (WeexModule, whose budget the
 * upload worker shares) behind ExchangeService (`call(agent, operation, params)`) and ExchangeCallService (the time-bounded
 * call). Controllers add `@UseFilters(ExchangeErrorFilter)`.
 */
@Module({
  imports: [WeexModule],
  providers: [ExchangeCallService, ExchangeService],
  exports: [ExchangeCallService, ExchangeService],
})
export class ExchangeProxyModule {}
