import { Module } from '@nestjs/common';
import { AiLogController } from './ai-log.controller.js';
import { AiLogService } from './ai-log.service.js';

@Module({ controllers: [AiLogController], providers: [AiLogService] })
export class AiLogModule {}
