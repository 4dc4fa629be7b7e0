import { Controller, Get, Param, Query, Req, UseGuards } from '@nestjs/common';
import { AgentAuthGuard, type AgentRequest, RequireScope } from '#libs/accounts';
import { ApiAgentController, ApiAnswer, ApiEndpoint, ApiErrors, ApiQueryDto } from '#libs/api-docs';
import { type CoverageView, EvidenceService, type OrderEvidenceView, readCoverageQuery, type SyncStateView } from '#libs/evidence';

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
  order: { orderId: '737185556881998306', symbol: 'BTCUSDT', side: 'BUY', status: 'FILLED', executedQty: '0.2' },
  orderSyncedAt: '2026-11-22T10:00:01.000Z',
  fills: [{ id: '737185556881995100', orderId: '737185556881998306', qty: '0.2', price: '97000', time: 1795340000000 }],
  planOrder: { algoId: '737185556881998401', actualOrderId: '737185556881998306', algoStatus: 'TRIGGERED' },
  logs: [
    {
      id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00', links: 'planOrder', orderId: '737185556881998401', status: 'uploaded', stage: 'decision',
      model: 'my-model-v1', receivedAt: '2026-11-22T09:00:00.000Z', uploadedAt: '2026-11-22T09:00:00.200Z', lastError: null,
      receipt: { at: '2026-11-22T09:00:00.100Z', finishedAt: '2026-11-22T09:00:00.200Z', target: 'exchange', httpStatus: 200, exchangeCode: '0', exchangeMessage: 'success' },
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
    { orderId: '737185556881998303', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', status: 'FILLED', time: '2026-11-20T10:00:00.000Z', filled: true, reason: 'pending' },
  ],
  uncoveredOrdersTruncated: false,
  unmatchedLogs: [{ id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f01', orderId: '737185556881999999', status: 'uploaded', receivedAt: '2026-11-21T10:00:00.000Z' }],
  unmatchedLogsTotal: 1,
  unmatchedLogsTruncated: false,
  sync: { ...SYNC_EXAMPLE, coversWindow: true },
};

/** Evidence that links the account's fills to the AI decisions behind them. Every answer is the agent's own account's. */
@Controller('v1')
@UseGuards(AgentAuthGuard)
@RequireScope('exchange:read')
@ApiAgentController('Evidence')
export class EvidenceController {
  constructor(private readonly evidence: EvidenceService) {}

  /** One order: the order, its fills, the plan order that placed it, and the AI logs that name either, with receipts. */
  @Get('orders/:orderId/evidence')
  @ApiEndpoint('Evidence for one order', 'The order, its fills, the plan order that placed it, and every AI log naming either, with upload receipts. Scope exchange:read.')
  @ApiAnswer(200, 'The evidence', EVIDENCE_EXAMPLE)
  @ApiErrors(400, 401, 403, 404, 429, 503)
  order(@Param('orderId') orderId: string, @Req() req: AgentRequest): Promise<OrderEvidenceView> {
    return this.evidence.orderEvidence(req.agent!.accountId, orderId);
  }

  /** Which orders created (and fills made) between `from` and `to` are covered by an uploaded AI log. */
  @Get('compliance/coverage')
  @ApiEndpoint('AI-log coverage of orders and fills', 'Orders created and fills made in the window (default the last 7 days, at most 90), which are covered by an uploaded AI log, and logs that match no order. Scope exchange:read.')
  @ApiQueryDto('CoverageQueryDto')
  @ApiAnswer(200, 'Coverage of the window', COVERAGE_EXAMPLE)
  @ApiErrors(400, 401, 403, 429)
  coverage(@Query() query: unknown, @Req() req: AgentRequest): Promise<CoverageView> {
    return this.evidence.coverage(req.agent!.accountId, readCoverageQuery(query));
  }

  /** How far each evidence stream got, and its last error. */
  @Get('evidence/sync')
  @ApiEndpoint('Evidence sync state', 'Per stream (trades, orders, plan_orders): how far the sync got, when it last ran and succeeded, and its last error. Scope exchange:read.')
  @ApiAnswer(200, 'The sync state', { accountId: 'default', ...SYNC_EXAMPLE })
  @ApiErrors(401, 403, 429)
  sync(@Req() req: AgentRequest): Promise<SyncStateView & { accountId: string }> {
    return this.evidence.syncState(req.agent!.accountId);
  }
}
