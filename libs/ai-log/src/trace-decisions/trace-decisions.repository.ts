import { Injectable } from '@nestjs/common';
import { PrismaService, type TraceDecision } from '#libs/database';
import type { SpanDecision } from '#libs/otlp';
import type { ListTraceDecisionsQueryDto } from './trace-decisions-query.dto.js';

/** What became of a decision: the AI log it made, or why it makes none. */
export type Outcome = { aiLogId: string } | { error: string };

export type StoredDecision = Pick<TraceDecision, 'accountId' | 'agentKeyId' | 'traceId' | 'spanId' | 'orderId' | 'stage' | 'explanation' | 'touchedAt'>;

const WAITING = { aiLogId: null, error: null };

/** The owner of `trace_decisions`: the spans that named an order, and the AI log each became. */
@Injectable()
export class TraceDecisionsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Records the decisions; one already recorded (an exporter's retry) is left as it is. */
  async record(accountId: string, agentKeyId: string, decisions: SpanDecision[]): Promise<void> {
    // Raw: Prisma's createMany spent more CPU on an export's hundreds of rows than the rest of this service.
    await this.prisma.$executeRaw`INSERT INTO trace_decisions (account_id, agent_key_id, trace_id, span_id, order_id, stage, explanation)
      SELECT ${accountId}, ${agentKeyId}, * FROM unnest(${decisions.map((d) => d.traceId)}::text[], ${decisions.map((d) => d.spanId)}::text[],
        ${decisions.map((d) => d.orderId)}::text[], ${decisions.map((d) => d.stage)}::text[], ${decisions.map((d) => d.explanation)}::text[])
      ON CONFLICT DO NOTHING`;
  }

  /** The decisions of these traces that have become neither a log nor an error. */
  async pending(accountId: string, traceIds: string[]): Promise<StoredDecision[]> {
    return this.prisma.traceDecision.findMany({
      where: { accountId, traceId: { in: traceIds }, ...WAITING },
      orderBy: { receivedAt: 'asc' },
      omit: { receivedAt: true, aiLogId: true, error: true },
    });
  }

  /** Notes that calls of these traces came: their waiting decisions wait for the traces to be quiet again. */
  async touch(accountId: string, traceIds: string[]): Promise<void> {
    await this.prisma.traceDecision.updateMany({ where: { accountId, traceId: { in: traceIds }, ...WAITING }, data: { touchedAt: new Date() } });
  }

  /** Waiting decisions, of any account, whose traces have been quiet since `quietSince`: the oldest `limit`. */
  async due(quietSince: Date, limit: number): Promise<StoredDecision[]> {
    return this.prisma.traceDecision.findMany({
      where: { touchedAt: { lt: quietSince }, ...WAITING },
      orderBy: { touchedAt: 'asc' },
      take: limit,
      omit: { receivedAt: true, aiLogId: true, error: true },
    });
  }

  /** The account's latest decisions, newest first, of one trace and one status when given. */
  async list(accountId: string, { traceId, status, limit = 50 }: ListTraceDecisionsQueryDto): Promise<TraceDecision[]> {
    const byStatus = { waiting: WAITING, logged: { aiLogId: { not: null } }, refused: { error: { not: null } } };
    return this.prisma.traceDecision.findMany({
      where: { accountId, ...(traceId && { traceId }), ...(status && byStatus[status]) },
      orderBy: [{ receivedAt: 'desc' }, { spanId: 'desc' }],
      take: limit,
    });
  }

  /** Records what became of each decision: its log, or why it has none. */
  async settle(accountId: string, settled: Array<{ decision: StoredDecision; outcome: Outcome }>): Promise<void> {
    if (settled.length === 0) return;
    // Raw: one UPDATE for an export's hundreds of decisions, which Prisma would send one by one.
    await this.prisma.$executeRaw`UPDATE trace_decisions d SET ai_log_id = o.ai_log_id, error = o.error
      FROM unnest(${settled.map((s) => s.decision.traceId)}::text[], ${settled.map((s) => s.decision.spanId)}::text[],
                  ${settled.map((s) => ('aiLogId' in s.outcome ? s.outcome.aiLogId : null))}::uuid[],
                  ${settled.map((s) => ('error' in s.outcome ? s.outcome.error : null))}::text[]) AS o(trace_id, span_id, ai_log_id, error)
      WHERE d.account_id = ${accountId} AND d.trace_id = o.trace_id AND d.span_id = o.span_id`;
  }
}
