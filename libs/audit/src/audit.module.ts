import { Module } from '@nestjs/common';
import { AiLogModule } from '#libs/ai-log';
import { EvidenceModule } from '#libs/evidence';
import { AuditReportService } from './report/audit-report.service.js';
import { AuditChainCheck } from './audit-chain-check.js';
import { AuditCheckRepository } from './audit-check.repository.js';
import { AuditCheckpointRepository } from './audit-checkpoint.repository.js';
import { AuditCheckpoints } from './audit-checkpoints.js';
import { AuditTreeRepository } from './audit-tree.repository.js';
import { AuditExport } from './audit-export.js';
import { AuditProofs } from './audit-proofs.js';
import { AuditWitnessRepository } from './witnesses/audit-witness.repository.js';
import { AuditWitnesses } from './witnesses/audit-witnesses.js';
import { AuditSigner } from './audit-signer.js';

/**
 * The audit trail's read side, its server-side check and checkpoints (the chains themselves are libs/ai-log's:
 * logs written at ingest, receipts when an upload attempt is recorded, both read through its AuditRows).
 */
@Module({
  imports: [AiLogModule, EvidenceModule],
  providers: [
    AuditSigner,
    AuditCheckRepository,
    AuditCheckpointRepository,
    AuditTreeRepository,
    AuditChainCheck,
    AuditCheckpoints,
    AuditExport,
    AuditReportService,
    AuditProofs,
    AuditWitnessRepository,
    AuditWitnesses,
  ],
  exports: [
    AuditSigner,
    AuditCheckRepository,
    AuditChainCheck,
    AuditCheckpoints,
    AuditExport,
    AuditReportService,
    AuditProofs,
    AuditWitnessRepository,
    AuditWitnesses,
  ],
})
export class AuditModule {}
