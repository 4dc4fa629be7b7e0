-- CreateTable
CREATE TABLE "upload_pauses" (
    "account_id" TEXT NOT NULL,
    "paused_at" TIMESTAMPTZ(3) NOT NULL,
    "resumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "upload_pauses_pkey" PRIMARY KEY ("account_id","paused_at")
);

-- AddForeignKey
ALTER TABLE "upload_pauses" ADD CONSTRAINT "upload_pauses_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Accounts paused when this runs: their pause so far.
INSERT INTO "upload_pauses" ("account_id", "paused_at") SELECT "id", "uploads_paused_at" FROM "accounts" WHERE "uploads_paused_at" IS NOT NULL;
