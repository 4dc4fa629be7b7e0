-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "uploads_pause_reason" TEXT;
