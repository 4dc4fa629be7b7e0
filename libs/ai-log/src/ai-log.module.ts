import { Module } from '@nestjs/common';
import { AccountsModule } from '#libs/accounts';
import { IdempotencyModule } from '#libs/idempotency';
import { ModelCallRecordsModule } from '#libs/model-calls';
import { WeexModule } from '#libs/weex-nest';
import { AdminLogsRepository } from './admin-logs.repository.js';
import { AuditRows } from './audit-rows.repository.js';
import { AiLogAppendRepository } from './ai-log-append.repository.js';
import { AiLogAppender } from './ai-log-appender.js';
import { AiLogRelay } from './ai-log-relay.js';
import { AiLogRepository } from './ai-log.repository.js';
import { AiLogService } from './ai-log.service.js';
import { LogStatsRepository } from './log-stats.repository.js';
import { AiLogUploader } from './ai-log-uploader.js';
import { AccountDrainer } from './account-drainer.js';
import { UploadHoldProbe } from './upload-hold-probe.js';
import { UploadLeases } from './upload-leases.js';
import { UploadWakeups } from './upload-wakeups.js';
import { TraceDecisionsRepository } from './trace-decisions/trace-decisions.repository.js';
import { TraceDecisions } from './trace-decisions/trace-decisions.service.js';

/** Accepting AI logs from agents (with their Idempotency-Keys) and uploading them to WEEX. Needs DatabaseModule and QueueModule in the app. */
@Module({
  imports: [WeexModule, IdempotencyModule, AccountsModule, ModelCallRecordsModule],
  providers: [
    AiLogRepository,
    AiLogAppendRepository,
    AiLogAppender,
    AiLogService,
    AiLogUploader,
    AccountDrainer,
    UploadLeases,
    UploadWakeups,
    AiLogRelay,
    UploadHoldProbe,
    LogStatsRepository,
    AdminLogsRepository,
    AuditRows,
    TraceDecisionsRepository,
    TraceDecisions,
  ],
  exports: [
    TraceDecisions,
    AiLogService,
    AccountDrainer,
    UploadWakeups,
    AiLogRelay,
    AiLogRepository,
    UploadHoldProbe,
    LogStatsRepository,
    AdminLogsRepository,
    AuditRows,
  ],
})
export class AiLogModule {}
