import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AccountView, AgentKeyView } from '#libs/accounts';
import { ApiId, ApiInstant, ApiNullable } from '#libs/api-docs';
import { AGENT_SCOPES } from '#libs/config';
import type { AccountStatus, AdminLogSummary, AdminLogView, PauseState, QueueOverview } from '#libs/admin';
import type { BudgetUsage, WindowUsage } from '#libs/weex-client';
import { AiLogDto, OUTCOME, STATUS, TARGET } from '../ai-logs.responses.js';
import { StreamStateDto } from '../evidence.responses.js';

/** The answers of /admin, as OpenAPI schemas. */

const COUNT = { type: 'integer' } as const;
const UUID = { format: 'uuid' } as const;

export class AccountDto implements AccountView {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiInstant() createdAt: string;
  @ApiProperty({ enum: ['config', 'stored', 'none'], description: '`config`: from the environment (the default account); `stored`: encrypted in the database' })
  credentials: AccountView['credentials'];
  @ApiProperty({ type: 'string', nullable: true }) baseUrl: string | null;
  @ApiProperty({ type: 'string', nullable: true }) spotBaseUrl: string | null;
  @ApiProperty({ ...COUNT, nullable: true }) ipWeightLimit: number | null;
  @ApiProperty({ ...COUNT, nullable: true }) uidWeightLimit: number | null;
  @ApiInstant({ nullable: true }) uploadsPausedAt: string | null;
}

export class AccountListDto {
  @ApiProperty({ type: [AccountDto] }) data: AccountDto[];
}

export class AgentKeyDto implements AgentKeyView {
  @ApiProperty(UUID) id: string;
  @ApiProperty() accountId: string;
  @ApiProperty() label: string;
  @ApiProperty({ enum: AGENT_SCOPES, isArray: true }) scopes: string[];
  @ApiProperty({ ...COUNT, nullable: true, description: 'null: AGENT_RATE_LIMIT_PER_MIN' }) rateLimitPerMin: number | null;
  @ApiInstant() createdAt: string;
  @ApiInstant({ nullable: true }) revokedAt: string | null;
  @ApiInstant({ nullable: true, description: 'When a judge key ends by itself; null: never' }) expiresAt: string | null;
}

export class CreatedAgentKeyDto extends AgentKeyDto {
  @ApiProperty({ description: 'the key itself: shown in this answer only' }) key: string;
}

export class AgentKeyListDto {
  @ApiProperty({ type: [AgentKeyDto] }) data: AgentKeyDto[];
}

export class AdminLogSummaryDto implements AdminLogSummary {
  @ApiProperty(UUID) id: string;
  @ApiProperty() accountId: string;
  @ApiProperty(STATUS) status: string;
  @ApiId({ nullable: true }) orderId: string | null;
  @ApiProperty() stage: string;
  @ApiProperty() model: string;
  @ApiProperty() explanation: string;
  @ApiProperty(COUNT) attemptCount: number;
  @ApiProperty({ type: 'string', nullable: true }) lastError: string | null;
  @ApiInstant() receivedAt: string;
  @ApiInstant() nextAttemptAt: string;
  @ApiInstant({ nullable: true }) uploadedAt: string | null;
}

export class AdminLogPageDto {
  @ApiProperty({ type: [AdminLogSummaryDto], description: 'newest first' }) data: AdminLogSummaryDto[];
  @ApiProperty({ type: 'string', nullable: true, description: 'pass as `cursor` for the next page; null on the last' }) nextCursor: string | null;
}

export class AdminLogDto extends AiLogDto implements AdminLogView {
  @ApiProperty() accountId: string;
  @ApiProperty(COUNT) attemptCount: number;
  @ApiInstant() nextAttemptAt: string;
}

export class RetriedDto {
  @ApiProperty({ ...COUNT, description: 'how many failed logs went back to queued' }) retried: number;
}

export class RetryQueuedDto {
  @ApiProperty(UUID) id: string;
  @ApiProperty({ enum: ['queued'] }) status: 'queued';
}

export class PauseStateDto implements PauseState {
  @ApiProperty() accountId: string;
  @ApiProperty() paused: boolean;
  @ApiInstant({ nullable: true }) pausedAt: string | null;
  @ApiProperty({
    // null listed too: OpenAPI 3.0 checks an example's null against the enum, nullable or not.
    enum: ['admin', 'ip_not_allowlisted', null],
    nullable: true,
    description:
      "why, while paused: `admin`, or `ip_not_allowlisted` (WEEX answered HTTP 521 to this server's IP; held until an admin resumes the account or the worker's probe finds the exchange answering)",
  })
  pauseReason: string | null;
}

export class ResumedDto extends PauseStateDto {
  @ApiProperty({ ...COUNT, description: 'logs that were waiting out a retry backoff, now due (the others were due all along)' }) retriesDueNow: number;
}

export class LogCountsDto {
  @ApiProperty(COUNT) queued: number;
  @ApiProperty(COUNT) uploading: number;
  @ApiProperty(COUNT) uploaded: number;
  @ApiProperty(COUNT) retrying: number;
  @ApiProperty(COUNT) failed: number;
}

export class WindowUsageDto implements WindowUsage {
  @ApiProperty(COUNT) limit: number;
  @ApiProperty({ ...COUNT, description: 'weight taken in the current span, a window and its guard ending now (leased weight included)' }) used: number;
  @ApiProperty({ ...COUNT, description: 'until the oldest weight leaves the span, freeing some of the limit' }) msBeforeReset: number;
  @ApiProperty({ ...COUNT, description: 'until a pause after a 429 ends; 0 when not paused' }) pausedMs: number;
}

export class BudgetUsageDto implements BudgetUsage {
  @ApiProperty({ type: WindowUsageDto }) ip: WindowUsageDto;
  @ApiProperty({ type: WindowUsageDto }) uid: WindowUsageDto;
}

export class RecentErrorDto {
  @ApiProperty(UUID) logId: string;
  @ApiInstant() at: string;
  @ApiProperty(OUTCOME) outcome: string;
  @ApiProperty(TARGET) target: string;
  @ApiProperty({ ...COUNT, nullable: true }) httpStatus: number | null;
  @ApiProperty({ type: 'string', nullable: true }) exchangeCode: string | null;
  @ApiProperty({ type: 'string', nullable: true }) exchangeMessage: string | null;
}

export class AccountStatusDto extends PauseStateDto implements AccountStatus {
  @ApiProperty() name: string;
  /** Logs by status. */
  @ApiProperty({ type: LogCountsDto }) logs: LogCountsDto;
  @ApiNullable(BudgetUsageDto, { description: "this process's view of the weight budget (shared by every process with REDIS_URL)" })
  weightBudget: BudgetUsageDto | null;
  @ApiPropertyOptional({ description: 'why weightBudget is null' }) weightBudgetError?: string;
  @ApiProperty({ ...COUNT, nullable: true, description: "the exchange's clock minus ours, in ms" }) clockOffsetMs: number | null;
  @ApiProperty({ type: [RecentErrorDto], description: 'the latest failed attempts' }) recentErrors: RecentErrorDto[];
  @ApiProperty({ type: [StreamStateDto] }) evidenceSync: StreamStateDto[];
}

export class QueueOverviewDto implements QueueOverview {
  @ApiProperty() queue: string;
  @ApiProperty({ enum: ['redis', 'postgres'] }) backend: QueueOverview['backend'];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    nullable: true,
    description: "BullMQ's job counts by state; null while the queue's store is away",
  })
  jobs: Record<string, number> | null;
  @ApiProperty({ type: 'boolean', nullable: true, description: 'the whole queue is paused; null when the store did not answer' }) paused: boolean | null;
  @ApiPropertyOptional({ description: 'why jobs is null' }) jobsError?: string;
  /** The truth: logs by status in PostgreSQL. */
  @ApiProperty({ type: LogCountsDto }) logs: LogCountsDto;
}
