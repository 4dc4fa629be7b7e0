-- CreateTable
CREATE TABLE "trace_decisions" (
    "account_id" TEXT NOT NULL,
    "trace_id" TEXT NOT NULL,
    "span_id" TEXT NOT NULL,
    "agent_key_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "stage" TEXT,
    "explanation" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "touched_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ai_log_id" UUID,
    "error" TEXT,

    CONSTRAINT "trace_decisions_pkey" PRIMARY KEY ("account_id","trace_id","span_id")
);

-- CreateIndex
CREATE INDEX "trace_decisions_waiting_idx" ON "trace_decisions"("touched_at") WHERE ((ai_log_id IS NULL) AND (error IS NULL));

-- AddForeignKey
ALTER TABLE "trace_decisions" ADD CONSTRAINT "trace_decisions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trace_decisions" ADD CONSTRAINT "trace_decisions_agent_key_id_fkey" FOREIGN KEY ("agent_key_id") REFERENCES "agent_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
