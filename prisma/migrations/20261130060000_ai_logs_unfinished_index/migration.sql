-- The logs not uploaded, by status and account (issue 23), in place of every log by status and due time. A scrape
-- counted each account's failed logs through the old index, one heap page per log of every account; now an index-only
-- count once VACUUM has marked the pages. The uploaded logs, nearly all of the history, stay out of it, so an upload no
-- longer adds an entry. Built in the migration's transaction, writes to ai_logs waiting for it: one scan of the table.
DROP INDEX "ai_logs_status_next_attempt_at_idx";
CREATE INDEX "ai_logs_unfinished_idx" ON "ai_logs"("status", "account_id", "received_at") WHERE (status <> 'uploaded'::ai_log_status);
