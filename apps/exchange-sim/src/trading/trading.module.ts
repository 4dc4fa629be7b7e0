import { Module } from '@nestjs/common';
import { AccountStateService } from './account-state.service.js';
import { TradingController } from './trading.controller.js';
import { TradingService } from './trading.service.js';

@Module({ controllers: [TradingController], providers: [TradingService, AccountStateService] })
export class TradingModule {}
