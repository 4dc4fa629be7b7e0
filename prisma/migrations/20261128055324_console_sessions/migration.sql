-- AlterTable
ALTER TABLE "agent_keys" ADD COLUMN     "expires_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "console_sessions" (
    "token_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "agent_key_id" TEXT,
    "admin_token_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE INDEX "console_sessions_expires_at_idx" ON "console_sessions"("expires_at");

-- AddForeignKey
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_agent_key_id_fkey" FOREIGN KEY ("agent_key_id") REFERENCES "agent_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
