import type { OrderCoverage } from './coverage.repository.js';
import type { StreamName } from './sync-state.repository.js';

/** What the exchange accepted for a log: its `uploaded` attempt. */
export interface UploadReceiptView {
  at: string;
  finishedAt: string;
  /** `simulator` or `exchange`: who answered. */
  target: string;
  httpStatus: number | null;
  exchangeCode: string | null;
  exchangeMessage: string | null;
}

export interface AttemptSummaryView extends UploadReceiptView {
  outcome: string;
}

export interface EvidenceLogView {
  id: string;
  /**
   * What the log names: the order itself, the plan order linked to it, or (when the order is a plan order that
   * order/history lists under its algoId) the order that plan order was attached to.
   */
  links: 'order' | 'planOrder' | 'attachedOrder';
  orderId: string;
  status: string;
  stage: string;
  model: string;
  receivedAt: string;
  uploadedAt: string | null;
  lastError: string | null;
  /** The upload the exchange accepted; null while the log is not uploaded. */
  receipt: UploadReceiptView | null;
  /** The latest attempts (at most 3) of a log that is not uploaded; empty once it is. */
  latestAttempts: AttemptSummaryView[];
}

export interface StreamStateView {
  stream: StreamName;
  /** Everything created before this was pulled at least once. */
  syncedUntil: string | null;
  lastRunAt: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  lastRows: number;
  /** A BIGINT count, as its digits. */
  totalRows: string;
  /** The last run succeeded (a `lastError` older than `lastSuccessAt` is history). */
  ok: boolean;
}

export interface SyncStateView {
  /** The oldest of the streams' `syncedUntil`: evidence is complete up to here. Null before every stream synced once. */
  syncedUntil: string | null;
  streams: StreamStateView[];
}

export interface OrderEvidenceView {
  orderId: string;
  coverage: OrderCoverage;
  /** The order as the exchange last reported it (IDs as digit strings); null for a plan order's algoId that names no order. */
  order: unknown;
  orderSyncedAt: string | null;
  fills: unknown[];
  /** The plan (conditional) order linked to this order, if any; `planOrderLink` says how. */
  planOrder: unknown;
  /**
   * `placed`: the plan order triggered and placed this order; `self`: this order is the plan order, listed by
   * order/history under its algoId once it ended, or asked for by its algoId (then `order` is null unless so listed); `attached`: the plan order protects this order (its TP/SL, waiting
   * or ended). Null without a plan order.
   */
  planOrderLink: PlanOrderLink | null;
  logs: EvidenceLogView[];
  sync: SyncStateView;
}

export type PlanOrderLink = 'placed' | 'self' | 'attached';

export interface UncoveredOrderView {
  orderId: string;
  symbol: string;
  side: string;
  type: string;
  status: string;
  time: string;
  filled: boolean;
  /** `pending`: a log names it but is not uploaded yet; `failed`: its logs failed to upload; `missing`: no log names it. */
  reason: Exclude<OrderCoverage, 'covered'>;
}

export interface UnmatchedLogView {
  id: string;
  orderId: string;
  status: string;
  receivedAt: string;
}

export interface CoverageView {
  from: string;
  to: string;
  orders: { total: number; withFills: number; covered: number; uncovered: number; pending: number; failed: number; missing: number };
  fills: { total: number; covered: number; uncovered: number };
  uncoveredOrders: UncoveredOrderView[];
  uncoveredOrdersTruncated: boolean;
  unmatchedLogs: UnmatchedLogView[];
  unmatchedLogsTotal: number;
  unmatchedLogsTruncated: boolean;
  sync: SyncStateView & {
    /** The evidence reaches the window's end: orders and fills up to `to` have been synced. */
    coversWindow: boolean;
  };
}
