import { Module } from '@nestjs/common';
import { FaultsController } from './faults.controller.js';

@Module({ controllers: [FaultsController] })
export class FaultsModule {}
