import { Module } from '@nestjs/common';
import { WeexModule } from '#libs/weex-client';
import { AiLogAppender } from './ai-log-appender.js';
import { AiLogRelay } from './ai-log-relay.service.js';
import { AiLogRepository } from './ai-log.repository.js';
import { AiLogService } from './ai-log.service.js';
import { AiLogUploader } from './ai-log-uploader.service.js';

/** Accepting AI logs from agents and uploading them to WEEX. Needs DatabaseModule and QueueModule in the app. */
@Module({
  imports: [WeexModule],
  providers: [AiLogRepository, AiLogAppender, AiLogService, AiLogUploader, AiLogRelay],
  exports: [AiLogService, AiLogUploader, AiLogRelay, AiLogRepository],
})
export class AiLogModule {}
