-- AlterTable
ALTER TABLE "audit_checkpoints" ADD COLUMN     "note" TEXT;

-- AlterTable
ALTER TABLE "audit_checks" ADD COLUMN     "log_tree" BYTEA NOT NULL DEFAULT '\x';

-- CreateTable
CREATE TABLE "audit_log_tree" (
    "account_id" TEXT NOT NULL,
    "leaf_index" BIGINT NOT NULL,
    "hashes" BYTEA NOT NULL,

    CONSTRAINT "audit_log_tree_pkey" PRIMARY KEY ("account_id","leaf_index")
);

-- AddForeignKey
ALTER TABLE "audit_log_tree" ADD CONSTRAINT "audit_log_tree_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The tree is built by the audit check as it verifies each log: existing accounts verify their chains again from seq 1,
-- a run's worth at a time, and their trees grow from the stored chain as they do.
UPDATE "audit_checks" SET "log_seq" = 0, "log_hash" = '0000000000000000000000000000000000000000000000000000000000000000',
  "sweep_log_seq" = 0, "sweep_log_hash" = '0000000000000000000000000000000000000000000000000000000000000000', "complete" = false;
