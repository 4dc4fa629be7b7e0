import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '#libs/database';

/** How well an order is covered by AI logs: `covered` (one is uploaded), else `pending` (one is on its way), `failed` (all failed), `missing` (none). */
export type OrderCoverage = 'covered' | 'pending' | 'failed' | 'missing';

export interface OrderCounts {
  total: number;
  withFills: number;
  covered: number;
  pending: number;
  failed: number;
  missing: number;
}

export interface UncoveredOrderRow {
  orderId: string;
  symbol: string;
  side: string;
  type: string;
  status: string;
  createdAt: Date;
  filled: boolean;
  coverage: Exclude<OrderCoverage, 'covered'>;
}

/** A fill, with its trade's JSON, and whether an uploaded log covers it. */
export interface FillRow {
  at: Date;
  orderId: string;
  symbol: string;
  data: string;
  covered: boolean;
}

export interface UnmatchedLogRow {
  id: string;
  orderId: string;
  status: string;
  receivedAt: Date;
}

/**
 * A log links to an order when it names the order's ID; or the algoId of the plan order whose actualOrderId names the
 * order (the plan order placed it, or is its TP/SL); or, for a plan order that order/history lists under its algoId,
 * the order that plan order names (the order its TP/SL protected: ccxt returns only that order's ID to an agent that
 * attaches a TP/SL). The link is a join made at query time, never stored, so a log that arrived before its order
 * links as soon as the order is synced.
 */
const namesOrder = (log: string, account: string, order: string) =>
  Prisma.raw(`
  (${log}.order_id = ${order}
    OR ${log}.order_id IN (SELECT p.algo_id FROM exchange_plan_orders p WHERE p.account_id = ${account} AND p.actual_order_id = ${order})
    OR ${log}.order_id IN (SELECT p.actual_order_id FROM exchange_plan_orders p WHERE p.account_id = ${account} AND p.algo_id = ${order}))`);

/** Orders created in the window with their fills flag and coverage. */
const classifiedOrders = (accountId: string, from: Date, to: Date) => Prisma.sql`
  WITH orders AS (
    SELECT o.order_id, o.symbol, o.side, o.type, o.status, o.created_at,
      EXISTS (SELECT 1 FROM exchange_trades t WHERE t.account_id = o.account_id AND t.order_id = o.order_id) AS filled,
      (SELECT array_agg(DISTINCT a.status::text) FROM ai_logs a
        WHERE a.account_id = o.account_id AND ${namesOrder('a', 'o.account_id', 'o.order_id')}) AS log_statuses
    FROM exchange_orders o
    WHERE o.account_id = ${accountId} AND o.created_at BETWEEN ${from} AND ${to}
  ), classified AS (
    SELECT *, CASE
      WHEN 'uploaded' = ANY(log_statuses) THEN 'covered'
      WHEN log_statuses && ARRAY['queued', 'uploading', 'retrying'] THEN 'pending'
      WHEN log_statuses IS NOT NULL THEN 'failed'
      ELSE 'missing' END AS coverage
    FROM orders
  )`;

/** The queries behind /v1/compliance/coverage and the report's fills. Every one is scoped to the account. */
@Injectable()
export class CoverageRepository {
  constructor(private readonly prisma: PrismaService) {}

  async orderCounts(accountId: string, from: Date, to: Date): Promise<OrderCounts> {
    const [row] = await this.prisma.$queryRaw<OrderCounts[]>`${classifiedOrders(accountId, from, to)}
      SELECT count(*)::int AS total, count(*) FILTER (WHERE filled)::int AS "withFills",
        count(*) FILTER (WHERE coverage = 'covered')::int AS covered, count(*) FILTER (WHERE coverage = 'pending')::int AS pending,
        count(*) FILTER (WHERE coverage = 'failed')::int AS failed, count(*) FILTER (WHERE coverage = 'missing')::int AS missing
      FROM classified`;
    return row;
  }

  /** Uncovered orders of the window, oldest first, at most `limit`. */
  async uncoveredOrders(accountId: string, from: Date, to: Date, limit: number): Promise<UncoveredOrderRow[]> {
    return this.prisma.$queryRaw<UncoveredOrderRow[]>`${classifiedOrders(accountId, from, to)}
      SELECT order_id::text AS "orderId", symbol, side, type, status, created_at AS "createdAt", filled, coverage
      FROM classified WHERE coverage <> 'covered' ORDER BY created_at, order_id LIMIT ${limit}`;
  }

  /** Fills in the window, and how many belong to an order covered by an uploaded log. */
  async fillCounts(accountId: string, from: Date, to: Date): Promise<{ total: number; covered: number }> {
    const [row] = await this.prisma.$queryRaw<Array<{ total: number; covered: number }>>`
      SELECT count(*)::int AS total, count(*) FILTER (WHERE covered)::int AS covered FROM (
        SELECT EXISTS (SELECT 1 FROM ai_logs a
          WHERE a.account_id = t.account_id AND a.status = 'uploaded' AND ${namesOrder('a', 't.account_id', 't.order_id')}) AS covered
        FROM exchange_trades t WHERE t.account_id = ${accountId} AND t.time BETWEEN ${from} AND ${to}) f`;
    return row;
  }

  /**
   * The fills of [from, to), newest first, at most `limit`, for the report's timeline. A fill is covered when an
   * uploaded log names its order, or the plan order that placed it (the report's rule: not the attached-order link).
   */
  async fills(accountId: string, from: Date, to: Date, limit: number): Promise<FillRow[]> {
    return this.prisma.$queryRaw<FillRow[]>`
      SELECT t.time AS at, t.order_id::text AS "orderId", t.symbol, t.data,
             EXISTS (SELECT 1 FROM ai_logs l WHERE l.account_id = t.account_id AND l.status = 'uploaded'
                       AND (l.order_id = t.order_id OR l.order_id IN (SELECT p.algo_id FROM exchange_plan_orders p
                                                                      WHERE p.account_id = t.account_id AND p.actual_order_id = t.order_id))) AS covered
      FROM exchange_trades t
      WHERE t.account_id = ${accountId} AND t.time >= ${from} AND t.time < ${to}
      ORDER BY t.time DESC LIMIT ${limit}`;
  }

  /** How many fills the account had in [from, to). */
  async countFills(accountId: string, from: Date, to: Date): Promise<number> {
    const [row] = await this.prisma.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM exchange_trades WHERE account_id = ${accountId} AND time >= ${from} AND time < ${to}`;
    return row?.n ?? 0;
  }

  /** Logs received in the window whose orderId names no known order or plan order; oldest first, at most `limit`, with the total. */
  async unmatchedLogs(accountId: string, from: Date, to: Date, limit: number): Promise<{ total: number; rows: UnmatchedLogRow[] }> {
    const rows = await this.prisma.$queryRaw<Array<UnmatchedLogRow & { total: number }>>`
      SELECT a.id::text AS id, a.order_id::text AS "orderId", a.status::text AS status, a.received_at AS "receivedAt",
        count(*) OVER ()::int AS total
      FROM ai_logs a
      WHERE a.account_id = ${accountId} AND a.received_at BETWEEN ${from} AND ${to} AND a.order_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM exchange_orders o WHERE o.account_id = a.account_id AND o.order_id = a.order_id)
        AND NOT EXISTS (SELECT 1 FROM exchange_plan_orders p WHERE p.account_id = a.account_id AND p.algo_id = a.order_id)
      ORDER BY a.received_at, a.id LIMIT ${limit}`;
    return { total: rows[0]?.total ?? 0, rows: rows.map(({ total: _, ...row }) => row) };
  }
}
