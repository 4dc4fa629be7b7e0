-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "base_url" TEXT,
ADD COLUMN     "credentials_enc" TEXT,
ADD COLUMN     "ip_weight_limit" INTEGER,
ADD COLUMN     "spot_base_url" TEXT,
ADD COLUMN     "uid_weight_limit" INTEGER,
ADD COLUMN     "uploads_paused_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "agent_keys" ADD COLUMN     "rate_limit_per_min" INTEGER;
