import { Injectable } from '@nestjs/common';
import { parseJson } from '#libs/common';
import { PrismaService } from '#libs/database';

export interface StoredRecord {
  /** The record's JSON as the exchange client normalised it (IDs as digit strings). */
  data: string;
  syncedAt: Date;
}

export interface PlanOrderRecord {
  algoId: string;
  actualOrderId: string | null;
  algoStatus: string;
  data: string;
}

/** Reads behind the evidence of orders. Every query is scoped to the account. */
@Injectable()
export class EvidenceRepository {
  constructor(private readonly prisma: PrismaService) {}

  async order(accountId: string, orderId: string): Promise<StoredRecord | undefined> {
    const rows = await this.prisma.$queryRaw<Array<{ data: string; synced_at: Date }>>`
      SELECT data, synced_at FROM exchange_orders WHERE account_id = ${accountId} AND order_id = ${orderId}::bigint`;
    return rows[0] && { data: rows[0].data, syncedAt: rows[0].synced_at };
  }

  async fills(accountId: string, orderId: string): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ data: string }>>`
      SELECT data FROM exchange_trades WHERE account_id = ${accountId} AND order_id = ${orderId}::bigint ORDER BY time, trade_id`;
    return rows.map((r) => r.data);
  }

  /**
   * The plan order linked to the order: the order itself (a plan order order/history lists under its algoId), else
   * the one whose actualOrderId names it (the earliest, should the exchange report more than one).
   */
  async planOrderOf(accountId: string, orderId: string): Promise<PlanOrderRecord | undefined> {
    const rows = await this.prisma.$queryRaw<Array<{ algo_id: string; actual_order_id: string | null; algo_status: string; data: string }>>`
      SELECT algo_id::text AS algo_id, actual_order_id::text AS actual_order_id, algo_status, data FROM exchange_plan_orders
      WHERE account_id = ${accountId} AND (algo_id = ${orderId}::bigint OR actual_order_id = ${orderId}::bigint)
      ORDER BY algo_id = ${orderId}::bigint DESC, created_at, algo_id LIMIT 1`;
    const row = rows[0];
    return row && { algoId: row.algo_id, actualOrderId: row.actual_order_id, algoStatus: row.algo_status, data: row.data };
  }

  /** Orders, parsed, with their fills in time order: what the audit export puts beside the logs that name them. */
  async ordersWithFills(accountId: string, orderIds: string[]): Promise<Map<string, { order: unknown; fills: unknown[] }>> {
    if (orderIds.length === 0) return new Map();
    const [orders, fills] = await Promise.all([
      this.prisma.$queryRaw<Array<{ order_id: string; data: string }>>`
        SELECT order_id::text, data FROM exchange_orders WHERE account_id = ${accountId} AND order_id = ANY(${orderIds}::bigint[])`,
      this.prisma.$queryRaw<Array<{ order_id: string; data: string }>>`
        SELECT order_id::text, data FROM exchange_trades WHERE account_id = ${accountId} AND order_id = ANY(${orderIds}::bigint[]) ORDER BY time, trade_id`,
    ]);
    return new Map(
      orders.map((o) => [o.order_id, { order: parseJson(o.data), fills: fills.filter((f) => f.order_id === o.order_id).map((f) => parseJson(f.data)) }]),
    );
  }
}
