-- DropIndex
DROP INDEX "ai_logs_order_id_idx";

-- CreateIndex
CREATE INDEX "ai_logs_account_id_order_id_idx" ON "ai_logs"("account_id", "order_id");
