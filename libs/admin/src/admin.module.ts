import { Module } from '@nestjs/common';
import { AccountsModule } from '#libs/accounts';
import { AiLogModule } from '#libs/ai-log';
import { AuditModule } from '#libs/audit';
import { EvidenceModule } from '#libs/evidence';
import { WeexModule } from '#libs/weex-nest';
import { AccountOperationsService } from './account-operations.service.js';
import { AdminLogsService } from './admin-logs.service.js';
import { AttemptTally } from './attempt-tally.js';
import { DatabasePingRepository } from './database-ping.repository.js';
import { DueLogsQueue } from './due-logs-queue.js';
import { ExchangeProbe } from './exchange-probe.js';
import { HealthService } from './health.service.js';
import { MetricsService } from './metrics.service.js';
import { ProcessMetrics } from './process-metrics.js';
import { QueueOverviewService } from './queue-overview.service.js';

/** Monitoring and control of the upload pipeline: admin views and actions, health, metrics. Needs RuntimeModule. */
@Module({
  imports: [AccountsModule, AiLogModule, WeexModule, EvidenceModule, AuditModule],
  providers: [
    DatabasePingRepository,
    DueLogsQueue,
    AccountOperationsService,
    AdminLogsService,
    ExchangeProbe,
    HealthService,
    AttemptTally,
    MetricsService,
    ProcessMetrics,
    QueueOverviewService,
  ],
  exports: [AccountOperationsService, AdminLogsService, HealthService, MetricsService, ProcessMetrics, QueueOverviewService],
})
export class AdminModule {}
