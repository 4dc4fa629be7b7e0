-- AlterTable
ALTER TABLE "ai_logs" ADD COLUMN     "hash" TEXT,
ADD COLUMN     "prev_hash" TEXT,
ADD COLUMN     "retried_at" TIMESTAMPTZ(3),
ADD COLUMN     "seq" BIGINT;

-- CreateTable
CREATE TABLE "audit_heads" (
    "account_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_heads_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "audit_checkpoints" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "signature" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,

    CONSTRAINT "audit_checkpoints_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_checkpoints_account_id_seq_idx" ON "audit_checkpoints"("account_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "ai_logs_account_id_seq_key" ON "ai_logs"("account_id", "seq");

-- AddForeignKey
ALTER TABLE "audit_heads" ADD CONSTRAINT "audit_heads_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_checkpoints" ADD CONSTRAINT "audit_checkpoints_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
