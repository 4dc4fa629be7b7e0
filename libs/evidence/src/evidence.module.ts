import { Module } from '@nestjs/common';
import { AiLogModule } from '#libs/ai-log';
import { WeexModule } from '#libs/weex-nest';
import { AccountLocks } from './account-lock.js';
import { CoverageRepository } from './coverage.repository.js';
import { EvidenceStore } from './evidence-store.repository.js';
import { EvidenceSyncService } from './evidence-sync.service.js';
import { EvidenceRepository } from './evidence.repository.js';
import { EvidenceService } from './evidence.service.js';
import { SyncStateRepository } from './sync-state.repository.js';

/**
 * Trade evidence: the sync that copies orders, plan orders and fills from the exchange into PostgreSQL (run by the
 * worker), and the queries that link them to AI logs (served by the API). Needs DatabaseModule and ConfigModule.
 */
@Module({
  imports: [AiLogModule, WeexModule],
  providers: [AccountLocks, EvidenceStore, SyncStateRepository, EvidenceRepository, CoverageRepository, EvidenceSyncService, EvidenceService],
  exports: [EvidenceSyncService, EvidenceService, CoverageRepository],
})
export class EvidenceModule {}
