-- CreateIndex
CREATE INDEX "trace_decisions_listed_idx" ON "trace_decisions"("account_id", "received_at" DESC, "trace_id" DESC, "span_id" DESC);
