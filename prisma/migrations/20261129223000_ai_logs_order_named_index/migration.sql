-- The logs that name an order, by time (issue 23): coverage's unmatched logs read the window's every log, the whole
-- heap when the window holds the history. Built in the migration's transaction, writes to ai_logs waiting for it: one
-- scan of the table, 0.16-0.35 s over a million logs of 1.2 KB in memory (an index of 1 MB at 3% naming an order).
CREATE INDEX "ai_logs_order_named_idx" ON "ai_logs"("account_id", "received_at") WHERE (order_id IS NOT NULL);
