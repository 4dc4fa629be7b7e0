-- AlterTable
ALTER TABLE "agent_keys" ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY['logs:write', 'exchange:read']::TEXT[];

-- CreateTable
CREATE TABLE "exchange_orders" (
    "account_id" TEXT NOT NULL,
    "order_id" BIGINT NOT NULL,
    "symbol" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "data" TEXT NOT NULL,
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_orders_pkey" PRIMARY KEY ("account_id","order_id")
);

-- CreateTable
CREATE TABLE "exchange_trades" (
    "account_id" TEXT NOT NULL,
    "trade_id" BIGINT NOT NULL,
    "order_id" BIGINT NOT NULL,
    "symbol" TEXT NOT NULL,
    "time" TIMESTAMPTZ(3) NOT NULL,
    "data" TEXT NOT NULL,
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_trades_pkey" PRIMARY KEY ("account_id","trade_id")
);

-- CreateTable
CREATE TABLE "exchange_plan_orders" (
    "account_id" TEXT NOT NULL,
    "algo_id" BIGINT NOT NULL,
    "actual_order_id" BIGINT,
    "symbol" TEXT NOT NULL,
    "algo_status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "data" TEXT NOT NULL,
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_plan_orders_pkey" PRIMARY KEY ("account_id","algo_id")
);

-- CreateTable
CREATE TABLE "sync_streams" (
    "account_id" TEXT NOT NULL,
    "stream" TEXT NOT NULL,
    "synced_until" TIMESTAMPTZ(3),
    "last_run_at" TIMESTAMPTZ(3),
    "last_success_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),
    "last_rows" INTEGER NOT NULL DEFAULT 0,
    "total_rows" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "sync_streams_pkey" PRIMARY KEY ("account_id","stream")
);

-- CreateIndex
CREATE INDEX "exchange_orders_account_id_created_at_idx" ON "exchange_orders"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "exchange_trades_account_id_order_id_idx" ON "exchange_trades"("account_id", "order_id");

-- CreateIndex
CREATE INDEX "exchange_trades_account_id_time_idx" ON "exchange_trades"("account_id", "time");

-- CreateIndex
CREATE INDEX "exchange_plan_orders_account_id_actual_order_id_idx" ON "exchange_plan_orders"("account_id", "actual_order_id");

-- AddForeignKey
ALTER TABLE "exchange_orders" ADD CONSTRAINT "exchange_orders_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_trades" ADD CONSTRAINT "exchange_trades_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exchange_plan_orders" ADD CONSTRAINT "exchange_plan_orders_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sync_streams" ADD CONSTRAINT "sync_streams_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
