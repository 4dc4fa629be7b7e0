-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "llm_base_url" TEXT,
ADD COLUMN     "llm_key_enc" TEXT;

-- CreateTable
CREATE TABLE "model_calls" (
    "id" UUID NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_key_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "upstream_url" TEXT NOT NULL,
    "requested_model" TEXT,
    "answered_model" TEXT,
    "response_id" TEXT,
    "http_status" INTEGER,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "request_body" TEXT NOT NULL,
    "response_body" TEXT NOT NULL,
    "response_encoding" TEXT NOT NULL,
    "prompt_tokens" INTEGER,
    "completion_tokens" INTEGER,
    "total_tokens" INTEGER,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "first_byte_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3) NOT NULL,
    "request_sha256" TEXT NOT NULL,
    "response_sha256" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "model_calls_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "model_calls_account_id_seq_key" ON "model_calls"("account_id", "seq");

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_agent_key_id_fkey" FOREIGN KEY ("agent_key_id") REFERENCES "agent_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
