-- CreateIndex
CREATE INDEX "ai_logs_due_idx" ON "ai_logs"("account_id", "next_attempt_at", "id") WHERE (status = ANY (ARRAY['queued'::ai_log_status, 'retrying'::ai_log_status]));
