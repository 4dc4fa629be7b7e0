import { ApiProperty } from '@nestjs/swagger';
import { ApiId, ApiInstant, ApiNullable } from '#libs/api-docs';
import type {
  AttemptSummaryView,
  CoverageView,
  EvidenceLogView,
  OrderEvidenceView,
  PlanOrderLink,
  StreamStateView,
  SyncStateView,
  UncoveredOrderView,
  UnmatchedLogView,
} from '#libs/evidence';
import { OUTCOME, STATUS, UploadReceiptDto } from './ai-logs.responses.js';
import { OrderDto, PlanOrderDto } from './exchange/orders.responses.js';
import { TradeDto } from './exchange/trades.responses.js';

/** The answers of the evidence and coverage endpoints, as OpenAPI schemas. */

const COVERAGE = ['covered', 'pending', 'failed', 'missing'] as const;

export class StreamStateDto implements StreamStateView {
  @ApiProperty({ enum: ['trades', 'orders', 'plan_orders'] }) stream: StreamStateView['stream'];
  @ApiInstant({ nullable: true, description: 'everything created before this was pulled at least once' }) syncedUntil: string | null;
  @ApiInstant({ nullable: true }) lastRunAt: string | null;
  @ApiInstant({ nullable: true }) lastSuccessAt: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'kept after later successes; `ok` says whether the last run succeeded' }) lastError:
    string | null;
  @ApiInstant({ nullable: true }) lastErrorAt: string | null;
  @ApiProperty({ type: 'integer' }) lastRows: number;
  @ApiId({ description: 'a 64-bit count, as its digits' }) totalRows: string;
  @ApiProperty({ description: 'the last run succeeded' }) ok: boolean;
}

export class SyncStateDto implements SyncStateView {
  @ApiInstant({ nullable: true, description: 'the oldest of the streams: evidence is complete up to here' }) syncedUntil: string | null;
  @ApiProperty({ type: [StreamStateDto] }) streams: StreamStateDto[];
}

export class AccountSyncStateDto extends SyncStateDto {
  @ApiProperty() accountId: string;
}

export class CoverageSyncDto extends SyncStateDto {
  @ApiProperty({ description: "orders and fills up to the window's end have been synced" }) coversWindow: boolean;
}

export class AttemptSummaryDto extends UploadReceiptDto implements AttemptSummaryView {
  @ApiProperty(OUTCOME) outcome: string;
}

export class EvidenceLogDto implements EvidenceLogView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    enum: ['order', 'planOrder', 'attachedOrder'],
    description: 'what the log names: the order, its plan order, or the order the plan order was attached to',
  })
  links: EvidenceLogView['links'];
  @ApiId() orderId: string;
  @ApiProperty(STATUS) status: string;
  @ApiProperty() stage: string;
  @ApiProperty() model: string;
  @ApiInstant() receivedAt: string;
  @ApiInstant({ nullable: true }) uploadedAt: string | null;
  @ApiProperty({ type: 'string', nullable: true }) lastError: string | null;
  @ApiNullable(UploadReceiptDto, { description: 'the upload the exchange accepted; null while not uploaded' }) receipt: UploadReceiptDto | null;
  @ApiProperty({ type: [AttemptSummaryDto], description: 'the latest attempts (at most 3) of a log not uploaded; empty once it is' })
  latestAttempts: AttemptSummaryDto[];
}

export class OrderEvidenceDto implements OrderEvidenceView {
  @ApiId() orderId: string;
  @ApiProperty({ enum: COVERAGE }) coverage: OrderEvidenceView['coverage'];
  /** The order as the exchange last reported it; null when the ID is a plan order's algoId that names no order. */
  @ApiNullable(OrderDto, { description: "the order as the exchange last reported it; null when the ID is a plan order's algoId that names no order" })
  order: OrderDto | null;
  @ApiInstant({ nullable: true }) orderSyncedAt: string | null;
  @ApiProperty({ type: [TradeDto] }) fills: TradeDto[];
  @ApiNullable(PlanOrderDto, { description: 'the plan order linked to this order; `planOrderLink` says how' }) planOrder: PlanOrderDto | null;
  @ApiProperty({
    enum: ['placed', 'self', 'attached'],
    nullable: true,
    description: '`placed`: it placed this order; `self`: this order is the plan order (asked for by its algoId); `attached`: it is TP/SL of this order',
  })
  planOrderLink: PlanOrderLink | null;
  @ApiProperty({ type: [EvidenceLogDto] }) logs: EvidenceLogDto[];
  @ApiProperty({ type: SyncStateDto }) sync: SyncStateDto;
}

export class OrderCountsDto {
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ type: 'integer' }) withFills: number;
  @ApiProperty({ type: 'integer' }) covered: number;
  @ApiProperty({ type: 'integer' }) uncovered: number;
  @ApiProperty({ type: 'integer' }) pending: number;
  @ApiProperty({ type: 'integer' }) failed: number;
  @ApiProperty({ type: 'integer' }) missing: number;
}

export class FillCountsDto {
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ type: 'integer' }) covered: number;
  @ApiProperty({ type: 'integer' }) uncovered: number;
}

export class UncoveredOrderDto implements UncoveredOrderView {
  @ApiId() orderId: string;
  @ApiProperty() symbol: string;
  @ApiProperty() side: string;
  @ApiProperty() type: string;
  @ApiProperty() status: string;
  @ApiInstant() time: string;
  @ApiProperty() filled: boolean;
  @ApiProperty({
    enum: COVERAGE.filter((c) => c !== 'covered'),
    description: '`pending`: a log is on its way; `failed`: its logs failed; `missing`: no log names it',
  })
  reason: UncoveredOrderView['reason'];
}

export class UnmatchedLogDto implements UnmatchedLogView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiId() orderId: string;
  @ApiProperty(STATUS) status: string;
  @ApiInstant() receivedAt: string;
}

export class CoverageDto implements CoverageView {
  @ApiInstant() from: string;
  @ApiInstant() to: string;
  @ApiProperty({ type: OrderCountsDto }) orders: OrderCountsDto;
  @ApiProperty({ type: FillCountsDto }) fills: FillCountsDto;
  @ApiProperty({ type: [UncoveredOrderDto] }) uncoveredOrders: UncoveredOrderDto[];
  @ApiProperty() uncoveredOrdersTruncated: boolean;
  @ApiProperty({ type: [UnmatchedLogDto], description: 'logs of the window whose orderId matches no synced order or plan order' })
  unmatchedLogs: UnmatchedLogDto[];
  @ApiProperty({ type: 'integer' }) unmatchedLogsTotal: number;
  @ApiProperty() unmatchedLogsTruncated: boolean;
  @ApiProperty({ type: CoverageSyncDto }) sync: CoverageSyncDto;
}
