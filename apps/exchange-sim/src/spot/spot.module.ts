import { Module } from '@nestjs/common';
import { SpotController } from './spot.controller.js';
import { SpotService } from './spot.service.js';

@Module({ controllers: [SpotController], providers: [SpotService] })
export class SpotModule {}
