import { Module } from '@nestjs/common';
import { EvidenceModule } from '#libs/evidence';
import { AuditReportService } from './report/audit-report.service.js';
import { AuditCheckpoints } from './audit-checkpoints.service.js';
import { AuditExport } from './audit-export.js';
import { AuditSigner } from './audit-signer.js';

/** The audit trail's read side and checkpoints (the chain itself is written by libs/ai-log at ingest). */
@Module({
  imports: [EvidenceModule],
  providers: [AuditSigner, AuditCheckpoints, AuditExport, AuditReportService],
  exports: [AuditSigner, AuditCheckpoints, AuditExport, AuditReportService],
})
export class AuditModule {}
