import { Injectable } from '@nestjs/common';
import { PrismaService, type TraceDecision } from '#libs/database';
import type { DecisionStatus } from './trace-decisions-query.dto.js';

/** What became of a decision: the AI log it made, or why it makes none. */
export type Outcome = { aiLogId: string } | { error: string };

/** A decision as recorded: the span's weex.* values, and why it makes no log when it makes none. */
export type DecisionRow = Pick<TraceDecision, 'traceId' | 'spanId' | 'orderId' | 'stage' | 'explanation' | 'error'>;

export type StoredDecision = Pick<TraceDecision, 'accountId' | 'agentKeyId' | 'traceId' | 'spanId' | 'orderId' | 'stage' | 'explanation' | 'touchedAt'>;

const WAITING = { aiLogId: null, error: null };

export interface DecisionFilter {
  traceId?: string;
  status?: DecisionStatus;
}

/** Where a page ended: its last decision. */
export type DecisionCursor = Pick<TraceDecision, 'receivedAt' | 'traceId' | 'spanId'>;

/** The owner of `trace_decisions`: the spans that named an order, and the AI log each became. */
@Injectable()
export class TraceDecisionsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Records the decisions, a refused one with its error; one recorded before (an exporter's retry, or the same span
   * sent again with other values) is left as it is, and returned as it was recorded.
   */
  async record(accountId: string, agentKeyId: string, rows: DecisionRow[]): Promise<DecisionRow[]> {
    // Raw: Prisma's createMany spent more CPU on an export's hundreds of rows than the rest of this service.
    const inserted = await this.prisma.$queryRaw<Array<{ trace_id: string; span_id: string }>>`
      INSERT INTO trace_decisions (account_id, agent_key_id, trace_id, span_id, order_id, stage, explanation, error)
      SELECT ${accountId}, ${agentKeyId}, * FROM unnest(${rows.map((d) => d.traceId)}::text[], ${rows.map((d) => d.spanId)}::text[],
        ${rows.map((d) => d.orderId)}::text[], ${rows.map((d) => d.stage)}::text[], ${rows.map((d) => d.explanation)}::text[],
        ${rows.map((d) => d.error)}::text[])
      ON CONFLICT DO NOTHING RETURNING trace_id, span_id`;
    if (inserted.length === rows.length) return [];
    const fresh = new Set(inserted.map((row) => `${row.trace_id}/${row.span_id}`));
    const before = new Set(rows.map((row) => `${row.traceId}/${row.spanId}`).filter((key) => !fresh.has(key)));
    const found = await this.prisma.traceDecision.findMany({
      where: { accountId, traceId: { in: [...new Set(rows.map((row) => row.traceId))] } },
      select: { traceId: true, spanId: true, orderId: true, stage: true, explanation: true, error: true },
    });
    return found.filter((row) => before.has(`${row.traceId}/${row.spanId}`));
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

  /** The account's decisions, newest first, after `after` (keyset-paged), of one trace and one status when given. */
  async list(accountId: string, { traceId, status }: DecisionFilter, limit: number, after?: DecisionCursor): Promise<TraceDecision[]> {
    const byStatus = { waiting: WAITING, logged: { aiLogId: { not: null } }, refused: { error: { not: null } } };
    const older = after && {
      OR: [
        { receivedAt: { lt: after.receivedAt } },
        { receivedAt: after.receivedAt, traceId: { lt: after.traceId } },
        { receivedAt: after.receivedAt, traceId: after.traceId, spanId: { lt: after.spanId } },
      ],
    };
    return this.prisma.traceDecision.findMany({
      where: { accountId, ...(traceId && { traceId }), ...(status && byStatus[status]), ...older },
      orderBy: [{ receivedAt: 'desc' }, { traceId: 'desc' }, { spanId: 'desc' }],
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
