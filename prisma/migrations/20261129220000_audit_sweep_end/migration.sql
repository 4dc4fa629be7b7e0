-- Where each pass of the audit check's sweep ends, fixed when the pass starts (issue 23): measured against the moving
-- frontier, a pass never ended while the chain grew faster than the sweep, and a finding could not clear.
ALTER TABLE "audit_checks" ADD COLUMN "sweep_log_end_seq" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "sweep_log_end_hash" TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000',
ADD COLUMN "sweep_receipt_end_seq" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "sweep_receipt_end_hash" TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000';
