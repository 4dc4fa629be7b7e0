import { type DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '#libs/accounts';
import { AiLogModule } from '#libs/ai-log';
import { AuditModule } from '#libs/audit';
import type { GatewayConfig } from '#libs/config';
import { EvidenceModule } from '#libs/evidence';
import { IdempotencyModule } from '#libs/idempotency';
import { type Runtime, RuntimeModule } from '#libs/runtime';
import { AiLogUploadProcessor } from './ai-log-upload.processor.js';
import { AuditCheckpointScheduler } from './audit-checkpoint.scheduler.js';
import { EvidenceSyncScheduler } from './evidence-sync.scheduler.js';
import { IdempotencyPurgeScheduler } from './idempotency-purge.scheduler.js';
import { RelayScheduler } from './relay.scheduler.js';

/** The queue consumer that uploads logs. No HTTP listener. */
@Module({})
export class WorkerModule {
  static forRoot(config: GatewayConfig, runtime: Runtime): DynamicModule {
    return {
      module: WorkerModule,
      // AccountsModule gives the accounts an admin added their exchange clients in this process too.
      imports: [RuntimeModule.forRoot(config, runtime), AccountsModule, AiLogModule, IdempotencyModule, EvidenceModule, AuditModule],
      providers: [AiLogUploadProcessor, RelayScheduler, IdempotencyPurgeScheduler, EvidenceSyncScheduler, AuditCheckpointScheduler],
    };
  }
}
