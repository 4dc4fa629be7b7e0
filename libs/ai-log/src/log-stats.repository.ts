import { Injectable } from '@nestjs/common';
import { AiLogStatus, WindowReadPool, Prisma, PrismaService } from '#libs/database';

export type StatusCounts = Record<AiLogStatus, number>;

/** Upper bounds of the upload latency histogram, in ms; Prometheus sees them in seconds. */
export const LATENCY_BUCKETS_MS = [25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000] as const;

export interface LatencyHistogram {
  outcome: string;
  /** Cumulative: attempts at or below each bound of LATENCY_BUCKETS_MS. */
  buckets: number[];
  count: number;
  sumMs: number;
}

export interface AnswerCount {
  outcome: string;
  /** `none` when no HTTP answer came (a timeout, a refused connection). */
  httpStatus: string;
  /** `none` when the answer carried no exchange code. */
  exchangeCode: string;
  count: number;
}

/** A log as a point on a timeline: when, which order, which model, how its upload stands. */
export interface DecisionPoint {
  /** The log's id: its proof is GET /v1/ai-logs/:id/proof. */
  id: string;
  at: Date;
  orderId: string | null;
  model: string;
  status: string;
}

/** One model's logs in a window. */
export interface ModelSummary {
  model: string;
  logs: number;
  uploaded: number;
  first: Date;
  last: Date;
}

export function zeroCounts(): StatusCounts {
  return Object.fromEntries(Object.values(AiLogStatus).map((s) => [s, 0])) as StatusCounts;
}

/**
 * Aggregates and summaries over ai_logs and upload_attempts, for the admin overview, the metrics (libs/admin) and the
 * judges' report (libs/audit), which read these tables only through here.
 */
@Injectable()
export class LogStatsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pool: WindowReadPool,
  ) {}

  /** Logs by account and status. */
  async countsByAccount(): Promise<Map<string, StatusCounts>> {
    const rows = await this.prisma.$queryRaw<Array<{ account_id: string; status: AiLogStatus; n: bigint }>>`
      SELECT account_id, status::text AS status, count(*) AS n FROM ai_logs GROUP BY account_id, status`;
    const counts = new Map<string, StatusCounts>();
    for (const row of rows) {
      const account = counts.get(row.account_id) ?? zeroCounts();
      account[row.status] = Number(row.n);
      counts.set(row.account_id, account);
    }
    return counts;
  }

  async counts(accountId?: string): Promise<StatusCounts> {
    const where = accountId === undefined ? Prisma.empty : Prisma.sql`WHERE account_id = ${accountId}`;
    const rows = await this.prisma.$queryRaw<Array<{ status: AiLogStatus; n: bigint }>>`
      SELECT status::text AS status, count(*) AS n FROM ai_logs ${where} GROUP BY status`;
    const counts = zeroCounts();
    for (const row of rows) counts[row.status] = Number(row.n);
    return counts;
  }

  /** The account's logs received in [from, to), newest first, at most `limit`; like the next, stops when `signal` aborts. */
  async decisions(accountId: string, from: Date, to: Date, limit: number, signal?: AbortSignal): Promise<DecisionPoint[]> {
    return this.pool.rows<DecisionPoint>(
      Prisma.sql`SELECT id::text AS id, received_at AS at, order_id::text AS "orderId", model, status::text AS status FROM ai_logs
        WHERE account_id = ${accountId} AND received_at >= ${from} AND received_at < ${to}
        ORDER BY received_at DESC LIMIT ${limit}`,
      signal,
    );
  }

  /** The account's logs received in [from, to) by model, the busiest first. */
  async byModel(accountId: string, from: Date, to: Date, signal?: AbortSignal): Promise<ModelSummary[]> {
    return this.pool.rows<ModelSummary>(
      Prisma.sql`SELECT model, count(*)::int AS logs, count(*) FILTER (WHERE status = 'uploaded')::int AS uploaded,
               min(received_at) AS first, max(received_at) AS last
        FROM ai_logs WHERE account_id = ${accountId} AND received_at >= ${from} AND received_at < ${to}
        GROUP BY model ORDER BY count(*) DESC`,
      signal,
    );
  }

  /** The latency histogram of every attempt recorded, by outcome, counted in one pass. */
  async latencyHistograms(): Promise<LatencyHistogram[]> {
    const buckets = Prisma.join(LATENCY_BUCKETS_MS.map((b) => Prisma.sql`count(*) FILTER (WHERE latency_ms <= ${b}::int)`));
    const rows = await this.prisma.$queryRaw<Array<{ outcome: string; buckets: number[]; n: bigint; sum_ms: bigint }>>`
      SELECT outcome, jsonb_build_array(${buckets}) AS buckets, count(*) AS n, coalesce(sum(latency_ms), 0)::bigint AS sum_ms
      FROM upload_attempts GROUP BY outcome ORDER BY outcome`;
    return rows.map((r) => ({ outcome: r.outcome, buckets: r.buckets.map(Number), count: Number(r.n), sumMs: Number(r.sum_ms) }));
  }

  /** Attempts by outcome, HTTP status and exchange code. */
  async answers(): Promise<AnswerCount[]> {
    const rows = await this.prisma.$queryRaw<Array<{ outcome: string; http_status: string; exchange_code: string; n: bigint }>>`
      SELECT outcome, coalesce(http_status::text, 'none') AS http_status, coalesce(exchange_code, 'none') AS exchange_code, count(*) AS n
      FROM upload_attempts GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
    return rows.map((r) => ({ outcome: r.outcome, httpStatus: r.http_status, exchangeCode: r.exchange_code, count: Number(r.n) }));
  }
}
