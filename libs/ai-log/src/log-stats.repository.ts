import { Injectable } from '@nestjs/common';
import { AiLogStatus, WindowReadPool, Prisma, PrismaService } from '#libs/database';

export type StatusCounts = Record<AiLogStatus, number>;

/** Upper bounds of the upload latency histogram, in ms; Prometheus sees them in seconds. */
export const LATENCY_BUCKETS_MS = [25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000] as const;

/** Upload attempts of one outcome, HTTP status and exchange code. */
export interface AttemptGroup {
  outcome: string;
  /** `none` when no HTTP answer came (a timeout, a refused connection). */
  httpStatus: string;
  /** `none` when the answer carried no exchange code. */
  exchangeCode: string;
  count: number;
  /** Their latencies' sum, in ms, as digits (a bigint). */
  sumMs: string;
  /** How many took at most each bound of LATENCY_BUCKETS_MS. */
  buckets: number[];
}

/** Where an account's attempts were counted to: a receipt seq, and that receipt's hash ('' before the first). */
export interface TallyMark {
  seq: string;
  hash: string;
}

/** What LogStatsRepository.attemptsSince found. */
export interface AttemptsSince {
  /** Each account's mark after these attempts, which the next call passes back. */
  marks: Map<string, TallyMark>;
  groups: AttemptGroup[];
  /**
   * Some account's chain is not the one counted: its head is behind a mark, or the receipt at a mark has another hash
   * (a database restored from a backup, and written past the old mark since). Count again from the start.
   */
  rewound: boolean;
  /** Some account has attempts past its new mark: each call counts at most `step` per account. */
  more: boolean;
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

  /**
   * Logs by account and status, from what stays small as the history grows: the logs waiting (the due index), in
   * flight and failed are counted; the uploaded ones are the rest of the account's logs, which its chain's head seq
   * numbers (with any accepted before the chain). One statement, so one snapshot: a log that changes status meanwhile
   * is counted once.
   */
  async countsByAccount(accountId?: string): Promise<Map<string, StatusCounts>> {
    const only = accountId === undefined ? Prisma.empty : Prisma.sql`WHERE a.id = ${accountId}`;
    const rows = await this.prisma.$queryRaw<Array<{ account_id: string; total: bigint; counted: Partial<Record<AiLogStatus, number>> | null }>>`
      SELECT a.id AS account_id,
        coalesce((SELECT seq FROM audit_heads WHERE account_id = a.id), 0)
          + (SELECT count(*) FROM ai_logs WHERE account_id = a.id AND seq IS NULL) AS total,
        (SELECT json_object_agg(status, n) FROM (
          SELECT status, count(*) AS n FROM ai_logs WHERE account_id = a.id AND status IN ('queued', 'retrying') GROUP BY status
          UNION ALL
          SELECT status, count(*) FROM ai_logs WHERE status IN ('uploading', 'failed') AND account_id = a.id GROUP BY status) c) AS counted
      FROM accounts a ${only}`;
    const counts = new Map<string, StatusCounts>();
    for (const row of rows) {
      let account = { ...zeroCounts(), ...row.counted };
      account.uploaded = Number(row.total) - Object.values(account).reduce((sum, n) => sum + n, 0);
      // A head behind the logs (a damaged or partly restored database, which the audit check reports): counted row by row.
      if (account.uploaded < 0) account = await this.countedByStatus(row.account_id);
      if (row.total > 0n || row.counted) counts.set(row.account_id, account);
    }
    return counts;
  }

  private async countedByStatus(accountId: string): Promise<StatusCounts> {
    const rows = await this.prisma.$queryRaw<Array<{ status: AiLogStatus; n: bigint }>>`
      SELECT status::text AS status, count(*) AS n FROM ai_logs WHERE account_id = ${accountId} GROUP BY status`;
    const counts = zeroCounts();
    for (const row of rows) counts[row.status] = Number(row.n);
    return counts;
  }

  /** Logs by status, of one account or of all (countsByAccount's counts, added up). */
  async counts(accountId?: string): Promise<StatusCounts> {
    const counts = zeroCounts();
    for (const account of (await this.countsByAccount(accountId)).values()) {
      for (const status of Object.values(AiLogStatus)) counts[status] += account[status];
    }
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

  /**
   * The upload attempts recorded since `after` (account → its mark), by outcome, HTTP status and exchange code, up to
   * `step` past each mark or the account's receipt head, and the new marks, which the next call passes back: every
   * attempt up to an account's head is committed (the head moves in the attempt's statement), so the attempts in
   * (mark, new mark] are exactly the new ones. An account not in `after` is counted from its first attempt, those
   * recorded before the chain included (all of those in its first call). A receipt missing at a mark (a damaged chain,
   * which the audit check reports) is marked '', as it was when counted, so that it does not read as a restore.
   */
  async attemptsSince(after: ReadonlyMap<string, TallyMark>, step: number): Promise<AttemptsSince> {
    const buckets = Prisma.join(LATENCY_BUCKETS_MS.map((b) => Prisma.sql`count(*) FILTER (WHERE latency_ms <= ${b}::int)`));
    const marks = [...after.entries()];
    const [row] = await this.prisma.$queryRaw<
      Array<{ marks: Record<string, [string, string]> | null; groups: AttemptGroup[] | null; rewound: boolean | null; more: boolean | null }>
    >`
      WITH marks AS (
        SELECT * FROM unnest(${marks.map(([a]) => a)}::text[], ${marks.map(([, m]) => m.seq)}::bigint[], ${marks.map(([, m]) => m.hash)}::text[])
          AS m(account_id, seq, hash)),
      spans AS (
        SELECT a.id AS account_id, coalesce(h.seq, 0) AS head, m.seq AS mark, least(coalesce(h.seq, 0), coalesce(m.seq, 0) + ${step}::bigint) AS upto
        FROM accounts a LEFT JOIN audit_receipt_heads h ON h.account_id = a.id LEFT JOIN marks m ON m.account_id = a.id),
      new AS (
        SELECT a.outcome, a.http_status, a.exchange_code, a.latency_ms FROM spans s
        CROSS JOIN LATERAL (
          SELECT outcome, http_status, exchange_code, latency_ms FROM upload_attempts a
          WHERE a.account_id = s.account_id AND a.receipt_seq > coalesce(s.mark, 0) AND a.receipt_seq <= s.upto
          UNION ALL
          SELECT outcome, http_status, exchange_code, latency_ms FROM upload_attempts a
          WHERE a.account_id = s.account_id AND a.receipt_seq IS NULL AND s.mark IS NULL) a
      ),
      groups AS (
        SELECT outcome, coalesce(http_status::text, 'none') AS "httpStatus", coalesce(exchange_code, 'none') AS "exchangeCode",
          count(*)::int AS count, coalesce(sum(latency_ms), 0)::bigint::text AS "sumMs", jsonb_build_array(${buckets}) AS buckets
        FROM new GROUP BY 1, 2, 3)
      SELECT
        (SELECT json_object_agg(account_id, json_build_array(upto::text,
           coalesce((SELECT hash FROM upload_attempts WHERE account_id = s.account_id AND receipt_seq = s.upto), ''))) FROM spans s) AS marks,
        (SELECT json_agg(groups) FROM groups) AS groups,
        (SELECT bool_or(s.account_id IS NULL OR m.seq > s.head
           OR (m.seq > 0 AND coalesce((SELECT hash FROM upload_attempts WHERE account_id = m.account_id AND receipt_seq = m.seq), '') <> m.hash))
         FROM marks m LEFT JOIN spans s USING (account_id)) AS rewound,
        (SELECT bool_or(upto < head) FROM spans) AS more`;
    return {
      marks: new Map(Object.entries(row.marks ?? {}).map(([account, [seq, hash]]) => [account, { seq, hash }])),
      groups: row.groups ?? [],
      rewound: row.rewound ?? false,
      more: row.more ?? false,
    };
  }
}
