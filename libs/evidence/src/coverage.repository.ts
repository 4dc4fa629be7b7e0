import { Injectable } from '@nestjs/common';
import { WindowReadPool, Prisma } from '#libs/database';

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
 * links as soon as the order is synced. `attached: false` leaves the last link out (the report's fills).
 *
 * The statuses of the logs linked to `order`, as a subquery: the linked IDs (an index probe of exchange_plan_orders
 * each), then per ID one probe of ai_logs (account_id, order_id). Each probe is an ARRAY(SELECT ...) of one table with
 * equality on both columns of an index: PostgreSQL runs it once per row, cannot make it a join, and no statistics make
 * another index look cheaper. Written as a join or `= ANY (array)`, the planner took the account's whole range of
 * ai_logs on tables never analysed; written as `order_id = x OR order_id IN (...)`, it read the whole table per order.
 */
const linkedIds = (account: string, order: string, attached: boolean) =>
  [
    `ARRAY[${order}]`,
    `ARRAY(SELECT p.algo_id FROM exchange_plan_orders p WHERE p.account_id = ${account} AND p.actual_order_id = ${order})`,
    ...(attached
      ? [
          `ARRAY(SELECT p.actual_order_id FROM exchange_plan_orders p WHERE p.account_id = ${account} AND p.algo_id = ${order} AND p.actual_order_id IS NOT NULL)`,
        ]
      : []),
  ].join(' || ');

const linkedStatuses = (account: string, order: string, { attached = true } = {}) =>
  Prisma.raw(`(SELECT array_agg(DISTINCT status) FROM unnest(${linkedIds(account, order, attached)}) AS linked(id)
    CROSS JOIN LATERAL unnest(ARRAY(SELECT a.status::text FROM ai_logs a WHERE a.account_id = ${account} AND a.order_id = linked.id)) AS status)::text[]`);

/**
 * Orders created in the window with their fills flag and coverage (per order: a few index probes, see linkedStatuses).
 * MATERIALIZED: inlined, the CASE and the counts' FILTERs below each got a copy of the subqueries (planned 12 times,
 * run up to 3 times per order, and JIT-compiled once the copies' cost passed jit_above_cost: 470 ms against 20).
 */
const classifiedOrders = (accountId: string, from: Date, to: Date) => Prisma.sql`
  WITH orders AS MATERIALIZED (
    SELECT o.order_id, o.symbol, o.side, o.type, o.status, o.created_at,
      (SELECT count(*) FROM exchange_trades t WHERE t.account_id = o.account_id AND t.order_id = o.order_id) > 0 AS filled,
      ${linkedStatuses('o.account_id', 'o.order_id')} AS log_statuses
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

/**
 * The queries behind /v1/compliance/coverage and the report's fills. Every one is scoped to the account, and stops when
 * `signal` aborts (its request's client went away: see DatabasePool.rows).
 */
@Injectable()
export class CoverageRepository {
  constructor(private readonly pool: WindowReadPool) {}

  async orderCounts(accountId: string, from: Date, to: Date, signal?: AbortSignal): Promise<OrderCounts> {
    const [row] = await this.pool.rows<OrderCounts>(
      Prisma.sql`${classifiedOrders(accountId, from, to)}
      SELECT count(*)::int AS total, count(*) FILTER (WHERE filled)::int AS "withFills",
        count(*) FILTER (WHERE coverage = 'covered')::int AS covered, count(*) FILTER (WHERE coverage = 'pending')::int AS pending,
        count(*) FILTER (WHERE coverage = 'failed')::int AS failed, count(*) FILTER (WHERE coverage = 'missing')::int AS missing
      FROM classified`,
      signal,
    );
    return row;
  }

  /** Uncovered orders of the window, oldest first, at most `limit`. */
  async uncoveredOrders(accountId: string, from: Date, to: Date, limit: number, signal?: AbortSignal): Promise<UncoveredOrderRow[]> {
    return this.pool.rows<UncoveredOrderRow>(
      Prisma.sql`${classifiedOrders(accountId, from, to)}
      SELECT order_id::text AS "orderId", symbol, side, type, status, created_at AS "createdAt", filled, coverage
      FROM classified WHERE coverage <> 'covered' ORDER BY created_at, order_id LIMIT ${limit}`,
      signal,
    );
  }

  /** Fills in the window, and how many belong to an order covered by an uploaded log (each order looked up once). */
  async fillCounts(accountId: string, from: Date, to: Date, signal?: AbortSignal): Promise<{ total: number; covered: number }> {
    const [row] = await this.pool.rows<{ total: number; covered: number }>(
      Prisma.sql`
      SELECT coalesce(sum(fills), 0)::int AS total, coalesce(sum(fills) FILTER (WHERE covered), 0)::int AS covered
      FROM (SELECT fills, coalesce('uploaded' = ANY (${linkedStatuses('t.account_id', 't.order_id')}), false) AS covered
            FROM (SELECT account_id, order_id, count(*) AS fills FROM exchange_trades
                  WHERE account_id = ${accountId} AND time BETWEEN ${from} AND ${to} GROUP BY account_id, order_id) t) f`,
      signal,
    );
    return row;
  }

  /**
   * The fills of [from, to), newest first, at most `limit`, for the report's timeline. A fill is covered when an
   * uploaded log names its order, or the plan order that placed it (the report's rule: not the attached-order link).
   */
  async fills(accountId: string, from: Date, to: Date, limit: number, signal?: AbortSignal): Promise<FillRow[]> {
    return this.pool.rows<FillRow>(
      Prisma.sql`
      SELECT t.time AS at, t.order_id::text AS "orderId", t.symbol, t.data,
             coalesce('uploaded' = ANY (${linkedStatuses('t.account_id', 't.order_id', { attached: false })}), false) AS covered
      FROM exchange_trades t
      WHERE t.account_id = ${accountId} AND t.time >= ${from} AND t.time < ${to}
      ORDER BY t.time DESC LIMIT ${limit}`,
      signal,
    );
  }

  /** How many fills the account had in [from, to). */
  async countFills(accountId: string, from: Date, to: Date, signal?: AbortSignal): Promise<number> {
    const [row] = await this.pool.rows<{ n: number }>(
      Prisma.sql`SELECT count(*)::int AS n FROM exchange_trades WHERE account_id = ${accountId} AND time >= ${from} AND time < ${to}`,
      signal,
    );
    return row?.n ?? 0;
  }

  /**
   * Logs received in the window whose orderId names no known order or plan order; oldest first, at most `limit`, with
   * the total. The window's logs that name an order are read from their partial index (ai_logs_order_named_idx), so
   * the cost follows them, not every log of the window (a whole history's heap when the window holds it). The window
   * is a MATERIALIZED CTE so that the scan's conditions stay the index's: with statistics of a history where most logs
   * name no order, the planner walked every log of the account that names one (2% of a million, 45,000 buffers).
   */
  async unmatchedLogs(accountId: string, from: Date, to: Date, limit: number, signal?: AbortSignal): Promise<{ total: number; rows: UnmatchedLogRow[] }> {
    const rows = await this.pool.rows<UnmatchedLogRow & { total: number }>(
      Prisma.sql`
      WITH named AS MATERIALIZED (
        SELECT id, account_id, order_id, status, received_at FROM ai_logs
        WHERE account_id = ${accountId} AND received_at BETWEEN ${from} AND ${to} AND order_id IS NOT NULL
      )
      SELECT a.id::text AS id, a.order_id::text AS "orderId", a.status::text AS status, a.received_at AS "receivedAt",
        count(*) OVER ()::int AS total
      FROM named a
      WHERE (SELECT count(*) FROM exchange_orders o WHERE o.account_id = a.account_id AND o.order_id = a.order_id) = 0
        AND (SELECT count(*) FROM exchange_plan_orders p WHERE p.account_id = a.account_id AND p.algo_id = a.order_id) = 0
      ORDER BY a.received_at, a.id LIMIT ${limit}`,
      signal,
    );
    return { total: rows[0]?.total ?? 0, rows: rows.map(({ total: _, ...row }) => row) };
  }
}
