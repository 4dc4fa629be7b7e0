-- CreateTable
CREATE TABLE "audit_witnesses" (
    "account_id" TEXT NOT NULL,
    "witness" TEXT NOT NULL,
    "cosigned_size" BIGINT NOT NULL DEFAULT 0,
    "cosigned_at" TIMESTAMPTZ(3),
    "outcome" TEXT,
    "error" TEXT,
    "attempted_at" TIMESTAMPTZ(3),

    CONSTRAINT "audit_witnesses_pkey" PRIMARY KEY ("account_id","witness")
);

-- AddForeignKey
ALTER TABLE "audit_witnesses" ADD CONSTRAINT "audit_witnesses_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
