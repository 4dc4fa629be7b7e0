import { Controller, Get, Param, Query } from '@nestjs/common';
import { Agent, type AgentIdentity } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiErrors } from '#libs/api-docs';
import { DisconnectSignal, NoQueryDto } from '#libs/http';
import { CoverageQueryDto, type CoverageView, coverageWindow, EvidenceService, type OrderEvidenceView, type SyncStateView } from '#libs/evidence';
import { AgentApi, Scopes } from './controller-kinds.js';
import { ORDER_EXAMPLES } from './exchange/orders.responses.js';
import { TRADE_EXAMPLES } from './exchange/trades.responses.js';
import { AccountSyncStateDto, CoverageDto, OrderEvidenceDto } from './evidence.responses.js';

const STREAM_EXAMPLE = {
  stream: 'trades',
  syncedUntil: '2026-11-22T10:00:00.000Z',
  lastRunAt: '2026-11-22T10:00:00.000Z',
  lastSuccessAt: '2026-11-22T10:00:01.000Z',
  lastError: null,
  lastErrorAt: null,
  lastRows: 3,
  totalRows: '380',
  ok: true,
};
const SYNC_EXAMPLE = { syncedUntil: '2026-11-22T10:00:00.000Z', streams: [STREAM_EXAMPLE] };
const EVIDENCE_EXAMPLE = {
  orderId: '737185556881998306',
  coverage: 'covered',
  order: { ...ORDER_EXAMPLES.orderHistory.data[0], orderId: '737185556881998306' },
  orderSyncedAt: '2026-11-22T10:00:01.000Z',
  fills: [{ ...TRADE_EXAMPLES.trades.data[0], orderId: '737185556881998306' }],
  planOrder: { ...ORDER_EXAMPLES.algoOrders.orders[0], algoId: '737185556881998401', actualOrderId: '737185556881998306', algoStatus: 'TRIGGERED' },
  planOrderLink: 'placed',
  logs: [
    {
      id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00',
      links: 'planOrder',
      orderId: '737185556881998401',
      status: 'uploaded',
      stage: 'decision',
      model: 'my-model-v1',
      receivedAt: '2026-11-22T09:00:00.000Z',
      uploadedAt: '2026-11-22T09:00:00.200Z',
      lastError: null,
      receipt: {
        at: '2026-11-22T09:00:00.100Z',
        finishedAt: '2026-11-22T09:00:00.200Z',
        target: 'exchange',
        httpStatus: 200,
        exchangeCode: '0',
        exchangeMessage: 'success',
      },
      latestAttempts: [],
    },
  ],
  sync: SYNC_EXAMPLE,
};
const COVERAGE_EXAMPLE = {
  from: '2026-11-15T10:00:00.000Z',
  to: '2026-11-22T10:00:00.000Z',
  orders: { total: 7, withFills: 6, covered: 3, uncovered: 4, pending: 1, failed: 0, missing: 3 },
  fills: { total: 12, covered: 6, uncovered: 6 },
  uncoveredOrders: [
    {
      orderId: '737185556881998303',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      status: 'FILLED',
      time: '2026-11-20T10:00:00.000Z',
      filled: true,
      reason: 'pending',
    },
  ],
  uncoveredOrdersTruncated: false,
  unmatchedLogs: [{ id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f01', orderId: '737185556881999999', status: 'uploaded', receivedAt: '2026-11-21T10:00:00.000Z' }],
  unmatchedLogsTotal: 1,
  unmatchedLogsTruncated: false,
  sync: { ...SYNC_EXAMPLE, coversWindow: true },
};

/** Evidence that links the account's fills to the AI decisions behind them. Every answer is the agent's own account's. */
@Controller('v1')
@AgentApi('Evidence', 'exchange:read')
export class EvidenceController {
  constructor(private readonly evidence: EvidenceService) {}

  /** One order: the order, its fills, the plan order that placed it, and the AI logs that name either, with receipts. */
  @Get('orders/:orderId/evidence')
  @ApiEndpoint('Evidence for one order', 'The order, its fills, the plan order that placed it, and every AI log naming either, with upload receipts.')
  @ApiAnswer(200, 'The evidence', OrderEvidenceDto, EVIDENCE_EXAMPLE)
  @ApiErrors(400, 404, 503)
  @Scopes(['exchange:read', 'audit:read'])
  getOrderEvidence(@Param('orderId') orderId: string, @Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<OrderEvidenceView> {
    return this.evidence.orderEvidence(agent.accountId, orderId);
  }

  /** Which orders created (and fills made) between `from` and `to` are covered by an uploaded AI log. */
  @Get('compliance/coverage')
  @ApiEndpoint(
    'AI-log coverage of orders and fills',
    'Orders created and fills made in the window (default the last 7 days, at most 90), which are covered by an uploaded AI log, and logs that match no order. 503 `QUERY_TIMEOUT` when a statement runs past API_STATEMENT_TIMEOUT_MS.',
  )
  @ApiAnswer(200, 'Coverage of the window', CoverageDto, COVERAGE_EXAMPLE)
  @ApiErrors(400, 503)
  @Scopes(['exchange:read', 'audit:read'])
  getCoverage(@Query() query: CoverageQueryDto, @Agent() agent: AgentIdentity, @DisconnectSignal() signal: AbortSignal): Promise<CoverageView> {
    return this.evidence.coverage(agent.accountId, coverageWindow(query), signal);
  }

  /** How far each evidence stream got, and its last error. */
  @Get('evidence/sync')
  @ApiEndpoint('Evidence sync state', 'Per stream (trades, orders, plan_orders): how far the sync got, when it last ran and succeeded, and its last error.')
  @ApiAnswer(200, 'The sync state', AccountSyncStateDto, { accountId: 'default', ...SYNC_EXAMPLE })
  getEvidenceSync(@Query() _query: NoQueryDto, @Agent() agent: AgentIdentity): Promise<SyncStateView & { accountId: string }> {
    return this.evidence.syncState(agent.accountId);
  }
}
