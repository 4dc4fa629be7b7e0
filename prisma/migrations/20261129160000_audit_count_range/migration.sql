-- Where each run of the audit check counts its next range of rows below the frontier (issue 23): a run no longer
-- counts every row of the history.
ALTER TABLE "audit_checks" ADD COLUMN "count_log_seq" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "count_receipt_seq" BIGINT NOT NULL DEFAULT 0;
