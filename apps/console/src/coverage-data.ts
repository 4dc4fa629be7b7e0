import type { Client } from './api';
import { plural, when } from './format';
import type { Coverage, LogPage, LogSummary, OrderEvidence } from './types';

/** The chart's and the counts' reading of the window's decisions stops here (4 pages), and says so. */
const MAX_LOGS = 2000;
/** Orders (and their fills) looked up one by one for the chart: the uncovered ones first, then those decisions name. */
const MAX_ORDERS = 40;
const LOOKUPS_AT_ONCE = 4;

export interface Timeline {
  logs: LogSummary[];
  logsCapped: boolean;
  orders: { orderId: string; time: number; covered: boolean }[];
  fills: { time: number; price: number; symbol: string }[];
  ordersCapped: boolean;
}

const query = (params: Record<string, string | null>) =>
  Object.entries(params)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&');

/**
 * The query of GET /v1/compliance/coverage for the last `days` days, or for the `from` and `to` of `query`; `limit`
 * uncovered orders listed. Both ends are sent, `to` being now for the last N days: the server's now may be later,
 * making the window too long.
 */
export function windowQuery(query: URLSearchParams, days: string | undefined, limit = 100): string {
  const params = new URLSearchParams({ limit: String(limit) });
  const to = Date.now();
  if (days) params.set('from', String(to - Number(days) * 86_400_000));
  if (days) params.set('to', String(to));
  for (const name of ['from', 'to']) if (!days && query.get(name)) params.set(name, query.get(name)!);
  return params.toString();
}

async function windowLogs(api: Client, from: string, to: string): Promise<{ logs: LogSummary[]; capped: boolean }> {
  const logs: LogSummary[] = [];
  let cursor: string | null = null;
  do {
    const page: LogPage = await api.json(`/v1/ai-logs?${query({ from, to, limit: '500', cursor })}`);
    logs.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null && logs.length < MAX_LOGS);
  return { logs, capped: cursor !== null };
}

async function eachAtMost<T, R>(items: T[], atOnce: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  return out;
}

/**
 * The window's decisions, orders and fills on one time axis. Coverage answers counts and the uncovered orders; the
 * covered orders and every fill's price come from each order's evidence, for at most MAX_ORDERS orders.
 */
export async function loadTimeline(api: Client, coverage: Coverage): Promise<Timeline> {
  const { logs, capped } = await windowLogs(api, coverage.from, coverage.to);
  const named = logs.map((l) => l.orderId).filter((id): id is string => id !== null);
  const ids = [...new Set([...coverage.uncoveredOrders.map((o) => o.orderId), ...named])];
  const chosen = ids.slice(0, MAX_ORDERS);
  const evidence = await eachAtMost(chosen, LOOKUPS_AT_ONCE, (id) =>
    api.json<OrderEvidence>(`/v1/orders/${encodeURIComponent(id)}/evidence`).catch(() => undefined),
  );
  const from = Date.parse(coverage.from);
  const to = Date.parse(coverage.to);
  const inWindow = (t: number) => t >= from && t < to;
  const orders: Timeline['orders'] = [];
  const fills: Timeline['fills'] = [];
  for (const e of evidence) {
    if (!e?.order) continue;
    if (inWindow(e.order.time)) orders.push({ orderId: e.orderId, time: e.order.time, covered: e.coverage === 'covered' });
    for (const f of e.fills) if (inWindow(f.time)) fills.push({ time: f.time, price: Number(f.price), symbol: f.symbol });
  }
  // Uncovered orders beyond the lookups still have a time.
  const seen = new Set(orders.map((o) => o.orderId));
  for (const o of coverage.uncoveredOrders) if (!seen.has(o.orderId)) orders.push({ orderId: o.orderId, time: Date.parse(o.time), covered: false });
  return { logs, logsCapped: capped, orders, fills, ordersCapped: ids.length > chosen.length };
}

export interface ModelStageCount {
  model: string;
  stage: string;
  total: number;
  uploaded: number;
  pending: number;
  failed: number;
}

/** Decisions per model and stage, most first. */
export function countByModelStage(logs: LogSummary[]): ModelStageCount[] {
  const rows = new Map<string, ModelStageCount>();
  for (const log of logs) {
    const key = JSON.stringify([log.model, log.stage]);
    const row = rows.get(key) ?? { model: log.model, stage: log.stage, total: 0, uploaded: 0, pending: 0, failed: 0 };
    row.total++;
    if (log.status === 'uploaded') row.uploaded++;
    else if (log.status === 'failed') row.failed++;
    else row.pending++;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => b.total - a.total || a.model.localeCompare(b.model) || a.stage.localeCompare(b.stage));
}

/**
 * What a window with no uncovered order says: "all covered" only of orders that were read. Before the evidence sync's
 * first success there are none to count, which is no coverage.
 */
export function noGapsText({ orders, sync }: Coverage): string {
  if (sync.syncedUntil === null) return "The exchange's orders have not been read for this account yet: coverage cannot be judged.";
  if (orders.total === 0)
    return sync.coversWindow ? 'No orders in this window.' : `No orders counted: the exchange's orders are read up to ${when(sync.syncedUntil)} only.`;
  return orders.total === 1
    ? 'The one order is covered by an uploaded decision.'
    : `Every one of the ${plural(orders.total, 'order')} is covered by an uploaded decision.`;
}

/** Where the window's count stops short of its end, if it does. */
export function syncShortfall({ sync }: Coverage): string {
  if (sync.coversWindow) return '';
  return sync.syncedUntil === null
    ? "the exchange's orders have not been read yet"
    : `orders are synced up to ${when(sync.syncedUntil)} only, later ones are not counted yet`;
}
