import { type DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '#libs/accounts';
import { AiLogModule } from '#libs/ai-log';
import { AuditModule } from '#libs/audit';
import type { GatewayConfig } from '#libs/config';
import { EvidenceModule } from '#libs/evidence';
import { IdempotencyModule } from '#libs/idempotency';
import { type Runtime, RuntimeModule } from '#libs/runtime';
import { AiLogUploadProcessor, aiLogUploadProcessor } from './ai-log-upload.processor.js';
import { AuditCheckpointTask } from './audit-checkpoint.task.js';
import { EvidenceSyncTask } from './evidence-sync.task.js';
import { HoldProbeTask } from './hold-probe.task.js';
import { IdempotencyPurgeTask } from './idempotency-purge.task.js';
import { PeriodicSchedules } from './periodic-schedules.js';
import { PeriodicWorkProcessor, periodicWorkProcessor } from './periodic-work.processor.js';
import { RelayTask } from './relay.task.js';
import { TraceDecisionsTask } from './trace-decisions.task.js';

/** The queue consumer that uploads logs, and runs the periodic work. No HTTP listener. */
@Module({})
export class WorkerModule {
  static forRoot(config: GatewayConfig, runtime: Runtime): DynamicModule {
    return {
      module: WorkerModule,
      // AccountsModule gives the accounts an admin added their exchange clients in this process too.
      imports: [RuntimeModule.forRoot(config, runtime), AccountsModule, AiLogModule, IdempotencyModule, EvidenceModule, AuditModule],
      providers: [
        { provide: AiLogUploadProcessor, useClass: aiLogUploadProcessor(config) },
        { provide: PeriodicWorkProcessor, useClass: periodicWorkProcessor(config) },
        PeriodicSchedules,
        RelayTask,
        TraceDecisionsTask,
        HoldProbeTask,
        IdempotencyPurgeTask,
        EvidenceSyncTask,
        AuditCheckpointTask,
      ],
    };
  }
}
