import { Module } from '@nestjs/common';
import { SpotMarketController } from './spot-market.controller.js';
import { SpotController } from './spot.controller.js';
import { SpotService } from './spot.service.js';

@Module({ controllers: [SpotController, SpotMarketController], providers: [SpotService] })
export class SpotModule {}
