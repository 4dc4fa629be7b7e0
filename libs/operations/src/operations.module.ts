import { Module } from '@nestjs/common';
import { AiLogModule } from '#libs/ai-log';
import { EvidenceModule } from '#libs/evidence';
import { WeexModule } from '#libs/weex-client';
import { AccountOperationsRepository } from './account-operations.repository.js';
import { AccountOperationsService } from './account-operations.service.js';
import { AdminLogsRepository } from './admin-logs.repository.js';
import { AdminLogsService } from './admin-logs.service.js';
import { DatabasePingRepository } from './database-ping.repository.js';
import { DueLogsQueue } from './due-logs-queue.service.js';
import { ExchangeProbe } from './exchange-probe.service.js';
import { HealthService } from './health.service.js';
import { LogStatsRepository } from './log-stats.repository.js';
import { MetricsService } from './metrics.service.js';
import { QueueOverviewService } from './queue-overview.service.js';

/** Monitoring and control of the upload pipeline: admin views and actions, health, metrics. Needs RuntimeModule. */
@Module({
  imports: [AiLogModule, WeexModule, EvidenceModule],
  providers: [
    AccountOperationsRepository,
    AdminLogsRepository,
    DatabasePingRepository,
    LogStatsRepository,
    DueLogsQueue,
    AccountOperationsService,
    AdminLogsService,
    ExchangeProbe,
    HealthService,
    MetricsService,
    QueueOverviewService,
  ],
  exports: [AccountOperationsService, AdminLogsService, HealthService, MetricsService, QueueOverviewService],
})
export class OperationsModule {}
