import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';
import type { Order, PlanOrder, Trade } from '#libs/weex-client';
import { orderRow, planOrderRow, tradeRow, uniqueBy } from './exchange-records.js';

/**
 * Writes what the exchange reported into exchange_orders, exchange_plan_orders and exchange_trades, upserting by
 * primary key. A row is rewritten only when its JSON changed and the record is not older than the stored one, so
 * re-reads and overlapping windows write nothing, and each method returns the rows actually inserted or changed.
 * IDs go in as text cast to BIGINT, never through a JS number.
 */
@Injectable()
export class EvidenceStore {
  constructor(private readonly prisma: PrismaService) {}

  async accountExists(accountId: string): Promise<boolean> {
    return (await this.prisma.account.count({ where: { id: accountId } })) > 0;
  }

  async upsertOrders(accountId: string, orders: readonly Order[]): Promise<number> {
    const rows = uniqueBy(
      orders.map(orderRow),
      (r) => r.orderId,
      (r) => r.updatedAt,
    );
    if (rows.length === 0) return 0;
    const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
    return this.prisma.$executeRaw`
      INSERT INTO exchange_orders AS o (account_id, order_id, symbol, side, type, status, created_at, updated_at, data)
      SELECT ${accountId}, r.order_id::bigint, r.symbol, r.side, r.type, r.status, r.created_at::timestamptz, r.updated_at::timestamptz, r.data
      FROM unnest(${col('orderId')}::text[], ${col('symbol')}::text[], ${col('side')}::text[], ${col('type')}::text[],
                  ${col('status')}::text[], ${col('createdAt')}::text[], ${col('updatedAt')}::text[], ${col('data')}::text[])
        AS r(order_id, symbol, side, type, status, created_at, updated_at, data)
      ON CONFLICT (account_id, order_id) DO UPDATE SET
        symbol = EXCLUDED.symbol, side = EXCLUDED.side, type = EXCLUDED.type, status = EXCLUDED.status,
        created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, data = EXCLUDED.data, synced_at = now()
      WHERE o.data IS DISTINCT FROM EXCLUDED.data AND o.updated_at <= EXCLUDED.updated_at`;
  }

  async upsertPlanOrders(accountId: string, plans: readonly PlanOrder[]): Promise<number> {
    const rows = uniqueBy(
      plans.map(planOrderRow),
      (r) => r.algoId,
      (r) => r.updatedAt,
    );
    if (rows.length === 0) return 0;
    const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
    return this.prisma.$executeRaw`
      INSERT INTO exchange_plan_orders AS p (account_id, algo_id, actual_order_id, symbol, algo_status, created_at, updated_at, data)
      SELECT ${accountId}, r.algo_id::bigint, r.actual_order_id::bigint, r.symbol, r.algo_status, r.created_at::timestamptz,
             r.updated_at::timestamptz, r.data
      FROM unnest(${col('algoId')}::text[], ${col('actualOrderId')}::text[], ${col('symbol')}::text[], ${col('algoStatus')}::text[],
                  ${col('createdAt')}::text[], ${col('updatedAt')}::text[], ${col('data')}::text[])
        AS r(algo_id, actual_order_id, symbol, algo_status, created_at, updated_at, data)
      ON CONFLICT (account_id, algo_id) DO UPDATE SET
        actual_order_id = EXCLUDED.actual_order_id, symbol = EXCLUDED.symbol, algo_status = EXCLUDED.algo_status,
        created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, data = EXCLUDED.data, synced_at = now()
      WHERE p.data IS DISTINCT FROM EXCLUDED.data AND p.updated_at <= EXCLUDED.updated_at`;
  }

  async upsertTrades(accountId: string, trades: readonly Trade[]): Promise<number> {
    const rows = uniqueBy(trades.map(tradeRow), (r) => r.tradeId);
    if (rows.length === 0) return 0;
    const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
    return this.prisma.$executeRaw`
      INSERT INTO exchange_trades AS t (account_id, trade_id, order_id, symbol, time, data)
      SELECT ${accountId}, r.trade_id::bigint, r.order_id::bigint, r.symbol, r.time::timestamptz, r.data
      FROM unnest(${col('tradeId')}::text[], ${col('orderId')}::text[], ${col('symbol')}::text[], ${col('time')}::text[], ${col('data')}::text[])
        AS r(trade_id, order_id, symbol, time, data)
      ON CONFLICT (account_id, trade_id) DO UPDATE SET
        order_id = EXCLUDED.order_id, symbol = EXCLUDED.symbol, time = EXCLUDED.time, data = EXCLUDED.data, synced_at = now()
      WHERE t.data IS DISTINCT FROM EXCLUDED.data`;
  }

  /**
   * Orders stored with a status that is not one of `finalStatuses` (open, or one we do not recognise) and that are not
   * among `stillOpen`: they may have filled or been cancelled since. Oldest first, leaving out `skip` (orders the
   * exchange does not know) before the limit, so that they never crowd out the others.
   */
  async unsettledOrders(
    accountId: string,
    finalStatuses: readonly string[],
    stillOpen: readonly string[],
    skip: readonly string[],
    limit: number,
  ): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ order_id: string }>>`
      SELECT order_id::text AS order_id FROM exchange_orders
      WHERE account_id = ${accountId} AND NOT (status = ANY(${[...finalStatuses]}::text[]))
        AND NOT (order_id = ANY(${[...stillOpen, ...skip]}::text[]::bigint[]))
      ORDER BY created_at, order_id LIMIT ${limit}`;
    return rows.map((r) => r.order_id);
  }

  /**
   * Orders that synced fills belong to but that are not stored (created before the lookback), oldest fill first,
   * leaving out `skip` before the limit.
   */
  async ordersOfUnknownFills(accountId: string, skip: readonly string[], limit: number): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ order_id: string }>>`
      SELECT t.order_id::text AS order_id FROM exchange_trades t
      WHERE t.account_id = ${accountId}
        AND NOT (t.order_id = ANY(${[...skip]}::text[]::bigint[]))
        AND NOT EXISTS (SELECT 1 FROM exchange_orders o WHERE o.account_id = t.account_id AND o.order_id = t.order_id)
      GROUP BY t.order_id ORDER BY min(t.time), t.order_id LIMIT ${limit}`;
    return rows.map((r) => r.order_id);
  }

  /** Creation time (ms) of the oldest stored plan order whose status is not final, if any. */
  async oldestLivePlanOrder(accountId: string, finalStatuses: readonly string[]): Promise<number | undefined> {
    const rows = await this.prisma.$queryRaw<Array<{ created_at: Date | null }>>`
      SELECT min(created_at) AS created_at FROM exchange_plan_orders
      WHERE account_id = ${accountId} AND NOT (algo_status = ANY(${[...finalStatuses]}::text[]))`;
    return rows[0]?.created_at?.getTime() ?? undefined;
  }
}
