import { Injectable } from '@nestjs/common';
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

/** Reads behind the evidence of one order. Every query is scoped to the account. */
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
}
