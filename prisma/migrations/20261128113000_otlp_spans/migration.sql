-- AlterTable
ALTER TABLE "model_calls" ADD COLUMN     "operation" TEXT,
ADD COLUMN     "parent_span_id" TEXT,
ADD COLUMN     "provider" TEXT,
ADD COLUMN     "service_name" TEXT,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'proxy',
ADD COLUMN     "span_id" TEXT,
ADD COLUMN     "span_name" TEXT,
ADD COLUMN     "trace_id" TEXT,
ADD COLUMN     "weex_explanation" TEXT,
ADD COLUMN     "weex_order_id" TEXT,
ADD COLUMN     "weex_stage" TEXT,
ALTER COLUMN "method" DROP NOT NULL,
ALTER COLUMN "path" DROP NOT NULL,
ALTER COLUMN "upstream_url" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "model_calls_account_id_trace_id_span_id_key" ON "model_calls"("account_id", "trace_id", "span_id");
