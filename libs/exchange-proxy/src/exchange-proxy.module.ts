import { Module } from '@nestjs/common';
import { WeexModule } from '#libs/weex-nest';
import { ExchangeCallService } from './exchange-call.service.js';

/**
 * What the account and order endpoints need: the exchange client of each account (WeexModule, whose budget the
 * upload worker shares) behind ExchangeCallService. Controllers add `@UseFilters(ExchangeErrorFilter)`.
 */
@Module({
  imports: [WeexModule],
  providers: [ExchangeCallService],
  exports: [ExchangeCallService],
})
export class ExchangeProxyModule {}
