import { Injectable } from '@nestjs/common';
import { type AiLog, PrismaService, type UploadAttempt } from '#libs/database';

export interface StoredRecord {
  /** The record's JSON as the exchange client normalised it (IDs as digit strings). */
  data: string;
  syncedAt: Date;
}

export type LogWithAttempts = AiLog & { attempts: UploadAttempt[] };

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

  /** The plan order that placed the order, if one did (the earliest, should the exchange report more than one). */
  async planOrderOf(accountId: string, orderId: string): Promise<{ algoId: string; data: string } | undefined> {
    const rows = await this.prisma.$queryRaw<Array<{ algo_id: string; data: string }>>`
      SELECT algo_id::text AS algo_id, data FROM exchange_plan_orders
      WHERE account_id = ${accountId} AND actual_order_id = ${orderId}::bigint ORDER BY created_at, algo_id LIMIT 1`;
    return rows[0] && { algoId: rows[0].algo_id, data: rows[0].data };
  }

  /** The account's AI logs whose orderId is one of `ids`, oldest first, with their upload attempts. */
  async logsNaming(accountId: string, ids: readonly string[]): Promise<LogWithAttempts[]> {
    return this.prisma.aiLog.findMany({
      where: { accountId, orderId: { in: ids.map((id) => BigInt(id)) } },
      include: { attempts: { orderBy: { startedAt: 'asc' } } },
      orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
    });
  }
}
