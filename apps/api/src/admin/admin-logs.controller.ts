import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ConsoleAction } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiErrors, ApiJsonBody } from '#libs/api-docs';
import { NoQueryDto } from '#libs/http';
import { type AdminLogSummary, type AdminLogView, AdminLogsService, ListLogsQueryDto, LogFilterDto } from '#libs/admin';
import { AdminApi } from '../controller-kinds.js';
import { AdminLogDto, AdminLogPageDto, RetriedDto, RetryQueuedDto } from './admin.responses.js';

const ID = '0195f0c2-7c1a-7d3e-9b1f-2a4c6e8f0a12';
const SUMMARY = {
  id: ID,
  accountId: 'default',
  status: 'failed',
  orderId: '737185556881998184',
  stage: 'decision',
  model: 'my-model-v1',
  explanation: 'Momentum and funding both favour a long.',
  attemptCount: 1,
  lastError: 'permission: UID 8000000002 is not on the AI-log allowlist',
  receivedAt: '2026-11-21T19:00:00.000Z',
  nextAttemptAt: '2026-11-21T19:00:00.120Z',
  uploadedAt: null,
};
const ATTEMPT = {
  at: '2026-11-21T19:00:00.020Z',
  finishedAt: '2026-11-21T19:00:00.110Z',
  latencyMs: 90,
  target: 'exchange',
  outcome: 'permanent',
  httpStatus: 403,
  exchangeCode: '-1051',
  exchangeMessage: 'UID 8000000002 is not on the AI-log allowlist',
};

/** Logs of every account: list with filters and a cursor, one log's history, retries of failed logs. */
@Controller('admin/logs')
@AdminApi('Admin: operations')
export class AdminLogsController {
  constructor(private readonly logs: AdminLogsService) {}

  @Get()
  @ApiEndpoint(
    'Logs of every account, newest first',
    'Filters combine; `from` inclusive, `to` exclusive (ISO 8601 with a zone, or Unix ms). Pass `nextCursor` as `cursor` for the next page.',
  )
  @ApiAnswer(200, 'A page', AdminLogPageDto, { data: [SUMMARY], nextCursor: 'MTc5NTI4NzYwMDAwMC4wMTk1ZjBjMi03YzFhLTdkM2UtOWIxZi0yYTRjNmU4ZjBhMTI' })
  @ApiErrors(400)
  listAdminLogs(@Query() query: ListLogsQueryDto): Promise<{ data: AdminLogSummary[]; nextCursor: string | null }> {
    return this.logs.list(query);
  }

  /** Body `{ accountId?, from?, to?, error? }`: every failed log that matches; `{}` retries them all. */
  @Post('retry')
  @HttpCode(200)
  @ApiEndpoint('Retry every failed log that matches', '`{}` retries every failed log. Each goes back to queued, due now.')
  @ApiJsonBody(LogFilterDto, { accountId: 'default', from: '2026-11-21T00:00:00Z', error: 'allowlist' })
  @ApiAnswer(200, 'How many were retried', RetriedDto, { retried: 12 })
  @ApiErrors(400)
  retryFailedLogs(@Body() filter: LogFilterDto): Promise<{ retried: number }> {
    return this.logs.retryMatching(filter);
  }

  @Get(':id')
  @ApiEndpoint("One log's whole history, whatever its account")
  @ApiAnswer(200, 'The log and every upload attempt', AdminLogDto, {
    ...SUMMARY,
    target: 'exchange',
    input: { prompt: 'BTCUSDT 1h candles …' },
    output: { action: 'BUY' },
    explanation: 'Momentum and funding both favour a long.',
    modelCallIds: [],
    chain: {
      seq: '1842',
      prevHash: '3c9d0b7e5d4a3c1b0e9f8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928',
      hash: '9f2c0b7e5d4a3c1b0e9f8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928',
    },
    attempts: [ATTEMPT],
  })
  @ApiErrors(404)
  getAdminLog(@Param('id') id: string, @Query() _query: NoQueryDto): Promise<AdminLogView> {
    return this.logs.get(id);
  }

  @ConsoleAction()
  @Post(':id/retry')
  @HttpCode(200)
  @ApiEndpoint('Retry a failed log', 'Back to queued, due now, and queued. 409 unless the log is failed.')
  @ApiAnswer(200, 'Queued', RetryQueuedDto, { id: ID, status: 'queued' })
  @ApiErrors(404, 409)
  retryFailedLog(@Param('id') id: string): Promise<{ id: string; status: 'queued' }> {
    return this.logs.retry(id);
  }
}
