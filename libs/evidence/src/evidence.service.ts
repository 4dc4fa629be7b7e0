import { Injectable, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { parseJson } from '#libs/common';
import { AiLogRepository, type AiLogWithAttempts, readOrderId } from '#libs/ai-log';
import { ValidationFailedException } from '#libs/validation';
import { WeexApiError } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import type { CoverageWindow } from './coverage-query.dto.js';
import { CoverageRepository, type OrderCoverage } from './coverage.repository.js';
import { EvidenceStore } from './evidence-store.repository.js';
import { EvidenceRepository, type PlanOrderRecord, type StoredRecord } from './evidence.repository.js';
import type { CoverageView, EvidenceLogView, OrderEvidenceView, PlanOrderLink, SyncStateView, UploadReceiptView } from './evidence.views.js';
import { type StreamState, SyncStateRepository } from './sync-state.repository.js';

const PENDING = new Set(['queued', 'uploading', 'retrying']);
const LATEST_ATTEMPTS = 3;

/** The evidence an agent (or a judge it shows it to) reads: per order, per window, and how fresh it is. */
@Injectable()
export class EvidenceService {
  constructor(
    private readonly evidence: EvidenceRepository,
    private readonly aiLogs: AiLogRepository,
    private readonly coverageQueries: CoverageRepository,
    private readonly state: SyncStateRepository,
    private readonly store: EvidenceStore,
    private readonly clients: WeexAccountClients,
  ) {}

  /** Orders as synced, with their fills: what the audit export puts beside the logs that name them. */
  ordersWithFills(accountId: string, orderIds: string[]): Promise<Map<string, { order: unknown; fills: unknown[] }>> {
    return this.evidence.ordersWithFills(accountId, orderIds);
  }

  /**
   * One order with its fills, the plan order that placed it and every AI log of the account that names either, with
   * upload receipts; or a plan order by its algoId. An order the sync has not seen is asked of the exchange once and
   * stored; 404 if it does not know it.
   */
  async orderEvidence(accountId: string, orderIdParam: string): Promise<OrderEvidenceView> {
    const read = readOrderId(orderIdParam);
    if ('error' in read) throw new ValidationFailedException([{ path: 'orderId', message: read.error }]);
    const orderId = read.digits;
    const [stored, plan] = await Promise.all([this.evidence.order(accountId, orderId), this.evidence.planOrderOf(accountId, orderId)]);
    // A plan order's algoId (the ID ccxt returns for a TP/SL of its own, which agents log) is no order while the plan
    // waits or after it placed one: its evidence is the plan order's, with no order of its own. Else an order the
    // sync has not seen is asked of the exchange.
    const order = stored ?? (plan?.algoId === orderId ? undefined : await this.fetchOrder(accountId, orderId));
    const [fills, states] = await Promise.all([this.evidence.fills(accountId, orderId), this.state.find(accountId)]);
    const link = plan && planOrderLink(plan, orderId);
    // The order a plan order listed under its algoId was attached to: a log naming that order decided this one too.
    const attached = link === 'self' ? (plan?.actualOrderId ?? undefined) : undefined;
    const named = [orderId, ...(plan && plan.algoId !== orderId ? [plan.algoId] : []), ...(attached ? [attached] : [])];
    const logs = await this.aiLogs.logsNaming(accountId, named);
    return {
      orderId,
      coverage: coverageOf(logs),
      order: order ? parseJson(order.data) : null,
      orderSyncedAt: order ? order.syncedAt.toISOString() : null,
      fills: fills.map((data) => parseJson(data)),
      planOrder: plan ? parseJson(plan.data) : null,
      planOrderLink: link ?? null,
      logs: logs.map((log) => toLogView(log, orderId, attached)),
      sync: toSyncView(states),
    };
  }

  /** Coverage of the orders created, and the fills made, in the window; see CoverageView. Stops when `signal` aborts. */
  async coverage(accountId: string, window: CoverageWindow, signal?: AbortSignal): Promise<CoverageView> {
    const { from, to, limit } = window;
    const [orders, uncovered, fills, unmatched, states] = await Promise.all([
      this.coverageQueries.orderCounts(accountId, from, to, signal),
      this.coverageQueries.uncoveredOrders(accountId, from, to, limit, signal),
      this.coverageQueries.fillCounts(accountId, from, to, signal),
      this.coverageQueries.unmatchedLogs(accountId, from, to, limit, signal),
      this.state.find(accountId),
    ]);
    const sync = toSyncView(states);
    const uncoveredTotal = orders.total - orders.covered;
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      orders: { ...orders, uncovered: uncoveredTotal },
      fills: { ...fills, uncovered: fills.total - fills.covered },
      uncoveredOrders: uncovered.map((o) => ({
        orderId: o.orderId,
        symbol: o.symbol,
        side: o.side,
        type: o.type,
        status: o.status,
        time: o.createdAt.toISOString(),
        filled: o.filled,
        reason: o.coverage,
      })),
      uncoveredOrdersTruncated: uncoveredTotal > uncovered.length,
      unmatchedLogs: unmatched.rows.map((l) => ({ ...l, receivedAt: l.receivedAt.toISOString() })),
      unmatchedLogsTotal: unmatched.total,
      unmatchedLogsTruncated: unmatched.total > unmatched.rows.length,
      sync: { ...sync, coversWindow: sync.syncedUntil !== null && sync.syncedUntil >= to.toISOString() },
    };
  }

  async syncState(accountId: string): Promise<SyncStateView & { accountId: string }> {
    return { accountId, ...toSyncView(await this.state.find(accountId)) };
  }

  private async fetchOrder(accountId: string, orderId: string): Promise<StoredRecord> {
    const client = this.clients.forAccount(accountId);
    if (!client) throw orderNotFound(orderId, 'it has not been synced, and the gateway holds no exchange credentials for this account');
    try {
      const order = await client.orderInfo({ orderId });
      if (order.orderId === orderId) await this.store.upsertOrders(accountId, [order]);
    } catch (error) {
      if (!(error instanceof WeexApiError)) throw error;
      if (error.kind === 'invalid_request') throw orderNotFound(orderId, `the exchange does not know it either (${error.code ?? 'no code'}: ${error.message})`);
      throw new ServiceUnavailableException({
        code: 'EXCHANGE_UNAVAILABLE',
        message: `order ${orderId} is not synced yet, and asking the exchange failed: ${error.kind}: ${error.message}`,
      });
    }
    const stored = await this.evidence.order(accountId, orderId);
    if (!stored) throw orderNotFound(orderId, 'the exchange answered with another order');
    return stored;
  }
}

function orderNotFound(orderId: string, why: string): NotFoundException {
  return new NotFoundException({ code: 'ORDER_NOT_FOUND', message: `orderId ${orderId} is not a known order of this account: ${why}` });
}

function coverageOf(logs: readonly AiLogWithAttempts[]): OrderCoverage {
  if (logs.some((l) => l.status === 'uploaded')) return 'covered';
  if (logs.some((l) => PENDING.has(l.status))) return 'pending';
  return logs.length > 0 ? 'failed' : 'missing';
}

/** How the plan order relates to the order (see OrderEvidenceView.planOrderLink). */
function planOrderLink(plan: PlanOrderRecord, orderId: string): PlanOrderLink {
  if (plan.algoId === orderId) return 'self';
  return plan.algoStatus === 'TRIGGERED' ? 'placed' : 'attached';
}

function toLogView(log: AiLogWithAttempts, orderId: string, attached: string | undefined): EvidenceLogView {
  const receipt = log.status === 'uploaded' ? log.attempts.findLast((a) => a.outcome === 'uploaded') : undefined;
  const named = log.orderId!.toString();
  return {
    id: log.id,
    links: named === orderId ? 'order' : named === attached ? 'attachedOrder' : 'planOrder',
    orderId: named,
    status: log.status,
    stage: log.stage,
    model: log.model,
    receivedAt: log.receivedAt.toISOString(),
    uploadedAt: log.uploadedAt?.toISOString() ?? null,
    lastError: log.lastError,
    receipt: receipt ? toReceipt(receipt) : null,
    latestAttempts: receipt ? [] : log.attempts.slice(-LATEST_ATTEMPTS).map((a) => ({ ...toReceipt(a), outcome: a.outcome })),
  };
}

function toReceipt(a: AiLogWithAttempts['attempts'][number]): UploadReceiptView {
  return {
    at: a.startedAt.toISOString(),
    finishedAt: a.finishedAt.toISOString(),
    target: a.target,
    httpStatus: a.httpStatus,
    exchangeCode: a.exchangeCode,
    exchangeMessage: a.exchangeMessage,
  };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toSyncView(states: readonly StreamState[]): SyncStateView {
  const streams = states.map((s) => ({
    stream: s.stream,
    syncedUntil: iso(s.syncedUntil),
    lastRunAt: iso(s.lastRunAt),
    lastSuccessAt: iso(s.lastSuccessAt),
    lastError: s.lastError,
    lastErrorAt: iso(s.lastErrorAt),
    lastRows: s.lastRows,
    totalRows: s.totalRows.toString(),
    ok: s.lastSuccessAt !== null && (s.lastErrorAt === null || s.lastErrorAt < s.lastSuccessAt),
  }));
  const until = streams.map((s) => s.syncedUntil);
  return { syncedUntil: until.includes(null) ? null : until.sort()[0]!, streams };
}
