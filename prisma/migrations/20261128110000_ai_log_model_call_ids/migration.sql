-- The model calls an AI log names. A constant default: PostgreSQL adds the column without rewriting the table.
ALTER TABLE "ai_logs" ADD COLUMN "model_call_ids" UUID[] NOT NULL DEFAULT ARRAY[]::UUID[];
