-- AlterTable
ALTER TABLE "audit_checkpoints" ADD COLUMN     "receipt_hash" TEXT,
ADD COLUMN     "receipt_seq" BIGINT;

-- AlterTable: attempts already recorded get their log's account and stay outside the receipt chain (null links).
ALTER TABLE "upload_attempts" ADD COLUMN     "account_id" TEXT,
ADD COLUMN     "hash" TEXT,
ADD COLUMN     "log_status" "ai_log_status",
ADD COLUMN     "prev_hash" TEXT,
ADD COLUMN     "receipt_seq" BIGINT;

UPDATE "upload_attempts" a SET "account_id" = l."account_id" FROM "ai_logs" l WHERE l."id" = a."log_id";
ALTER TABLE "upload_attempts" ALTER COLUMN "account_id" SET NOT NULL;

-- CreateTable
CREATE TABLE "audit_receipt_heads" (
    "account_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_receipt_heads_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "audit_checks" (
    "account_id" TEXT NOT NULL,
    "log_seq" BIGINT NOT NULL DEFAULT 0,
    "log_hash" TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000',
    "receipt_seq" BIGINT NOT NULL DEFAULT 0,
    "receipt_hash" TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000',
    "sweep_log_seq" BIGINT NOT NULL DEFAULT 0,
    "sweep_log_hash" TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000',
    "sweep_receipt_seq" BIGINT NOT NULL DEFAULT 0,
    "sweep_receipt_hash" TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000000000000000000000000000',
    "complete" BOOLEAN NOT NULL DEFAULT false,
    "broken_chain" TEXT,
    "broken_seq" BIGINT,
    "broken_reason" TEXT,
    "broken_since" TIMESTAMPTZ(3),
    "checked_at" TIMESTAMPTZ(3),
    "log_swept_at" TIMESTAMPTZ(3),
    "receipt_swept_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),

    CONSTRAINT "audit_checks_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "upload_attempts_account_id_receipt_seq_key" ON "upload_attempts"("account_id", "receipt_seq");

-- AddForeignKey
ALTER TABLE "audit_receipt_heads" ADD CONSTRAINT "audit_receipt_heads_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_checks" ADD CONSTRAINT "audit_checks_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
