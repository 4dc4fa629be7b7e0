-- CreateIndex
CREATE INDEX "audit_checkpoints_account_id_receipt_seq_idx" ON "audit_checkpoints"("account_id", "receipt_seq");

-- CreateIndex
CREATE INDEX "upload_attempts_log_id_account_id_receipt_seq_idx" ON "upload_attempts"("log_id", "account_id", "receipt_seq");
