import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';
import { type CoverageView, EvidenceService } from '#libs/evidence';
import { type CheckpointView } from '../audit-checkpoint.repository.js';
import { AuditCheckpoints, type ChainHead } from '../audit-checkpoints.js';

/** At most this many decisions and fills are drawn on the timeline; the tables count them all. */
const TIMELINE_POINTS = 1_500;

export interface ReportData {
  accountId: string;
  from: Date;
  to: Date;
  generatedAt: Date;
  coverage: CoverageView;
  decisions: Array<{ at: Date; orderId: string | null; model: string; status: string }>;
  decisionsTotal: number;
  fills: Array<{ at: Date; orderId: string; symbol: string; side: string; qty: string; price: string; covered: boolean }>;
  fillsTotal: number;
  models: Array<{ model: string; logs: number; uploaded: number; first: Date; last: Date }>;
  head: ChainHead;
  checkpoints: CheckpointView[];
}

/** Everything the judges' report shows for one account and window. */
@Injectable()
export class AuditReportService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly evidence: EvidenceService,
    private readonly checkpoints: AuditCheckpoints,
  ) {}

  async gather(accountId: string, from: Date, to: Date): Promise<ReportData> {
    const [coverage, decisions, decisionsTotal, fills, fillsTotal, models, head, checkpoints] = await Promise.all([
      this.evidence.coverage(accountId, { from, to, limit: 200 }),
      this.prisma.$queryRaw<Array<{ at: Date; order_id: string | null; model: string; status: string }>>`
        SELECT received_at AS at, order_id::text AS order_id, model, status::text AS status FROM ai_logs
        WHERE account_id = ${accountId} AND received_at >= ${from} AND received_at < ${to}
        ORDER BY received_at DESC LIMIT ${TIMELINE_POINTS}`,
      this.count`SELECT count(*)::int AS n FROM ai_logs WHERE account_id = ${accountId} AND received_at >= ${from} AND received_at < ${to}`,
      // A fill is covered when an uploaded log names its order, or the plan order that placed it.
      this.prisma.$queryRaw<Array<{ at: Date; order_id: string; symbol: string; data: string; covered: boolean }>>`
        SELECT t.time AS at, t.order_id::text AS order_id, t.symbol, t.data,
               EXISTS (SELECT 1 FROM ai_logs l WHERE l.account_id = t.account_id AND l.status = 'uploaded'
                         AND (l.order_id = t.order_id OR l.order_id IN (SELECT p.algo_id FROM exchange_plan_orders p
                                                                        WHERE p.account_id = t.account_id AND p.actual_order_id = t.order_id))) AS covered
        FROM exchange_trades t
        WHERE t.account_id = ${accountId} AND t.time >= ${from} AND t.time < ${to}
        ORDER BY t.time DESC LIMIT ${TIMELINE_POINTS}`,
      this.count`SELECT count(*)::int AS n FROM exchange_trades WHERE account_id = ${accountId} AND time >= ${from} AND time < ${to}`,
      this.prisma.$queryRaw<Array<{ model: string; logs: number; uploaded: number; first: Date; last: Date }>>`
        SELECT model, count(*)::int AS logs, count(*) FILTER (WHERE status = 'uploaded')::int AS uploaded,
               min(received_at) AS first, max(received_at) AS last
        FROM ai_logs WHERE account_id = ${accountId} AND received_at >= ${from} AND received_at < ${to}
        GROUP BY model ORDER BY count(*) DESC`,
      this.checkpoints.head(accountId),
      this.checkpoints.list(accountId),
    ]);
    return {
      accountId,
      from,
      to,
      generatedAt: new Date(),
      coverage,
      decisions: decisions.map((d) => ({ at: d.at, orderId: d.order_id, model: d.model, status: d.status })),
      decisionsTotal,
      fills: fills.map((f) => {
        const trade = JSON.parse(f.data) as { side?: string; qty?: string; price?: string };
        return { at: f.at, orderId: f.order_id, symbol: f.symbol, side: trade.side ?? '', qty: trade.qty ?? '', price: trade.price ?? '', covered: f.covered };
      }),
      fillsTotal,
      models,
      head,
      checkpoints: checkpoints.slice(-5),
    };
  }

  private async count(strings: TemplateStringsArray, ...values: unknown[]): Promise<number> {
    const rows = await this.prisma.$queryRaw<Array<{ n: number }>>(strings, ...values);
    return rows[0]?.n ?? 0;
  }
}
