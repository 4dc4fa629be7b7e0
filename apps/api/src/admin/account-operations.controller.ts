import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ConsoleAction } from '#libs/accounts';
import { ApiAnswer, ApiEndpoint, ApiErrors } from '#libs/api-docs';
import { NoQueryDto } from '#libs/http';
import { type AccountStatus, AccountOperationsService, type PauseState } from '#libs/admin';
import { AdminApi } from '../controller-kinds.js';
import { AccountStatusDto, PauseStateDto, ResumedDto } from './admin.responses.js';

const WINDOW = { used: 42, limit: 500, msBeforeReset: 6120, pausedMs: 0 };
export const STATUS_EXAMPLE = {
  accountId: 'team-b',
  name: 'Team B',
  paused: false,
  pausedAt: null,
  pauseReason: null,
  logs: { queued: 0, uploading: 1, uploaded: 5120, retrying: 2, failed: 1 },
  weightBudget: { ip: WINDOW, uid: { ...WINDOW, used: 30 } },
  clockOffsetMs: -38,
  recentErrors: [
    {
      logId: '0195f0c2-7c1a-7d3e-9b1f-2a4c6e8f0a12',
      at: '2026-11-22T09:58:00.000Z',
      outcome: 'retryable',
      target: 'exchange',
      httpStatus: 500,
      exchangeCode: '-1000',
      exchangeMessage: 'system error',
    },
  ],
  evidenceSync: [
    {
      stream: 'orders',
      syncedUntil: '2026-11-22T09:55:00.000Z',
      lastRunAt: '2026-11-22T09:59:00.000Z',
      lastSuccessAt: '2026-11-22T09:59:00.000Z',
      lastError: null,
      lastErrorAt: null,
      lastRows: 3,
      totalRows: '812',
      ok: true,
    },
  ],
};

/** Pausing and resuming an account's uploads, and its operational status. */
@Controller('admin/accounts/:id')
@AdminApi('Admin: operations')
export class AccountOperationsController {
  constructor(private readonly accounts: AccountOperationsService) {}

  @ConsoleAction()
  @Post('pause')
  @HttpCode(200)
  @ApiEndpoint("Pause an account's uploads", 'Workers send nothing for it until resumed; logs keep arriving and wait. Pausing twice keeps the first time.')
  @ApiAnswer(200, 'Paused', PauseStateDto, { accountId: 'team-b', paused: true, pausedAt: '2026-11-22T10:00:00.000Z', pauseReason: 'admin' })
  @ApiErrors(404)
  pauseAccountUploads(@Param('id') id: string): Promise<PauseState> {
    return this.accounts.pause(id);
  }

  @ConsoleAction()
  @Post('resume')
  @HttpCode(200)
  @ApiEndpoint(
    "Resume an account's uploads",
    'Workers upload its waiting logs again at once; logs waiting out a retry backoff are due now (`retriesDueNow` says how many). The time paused does not count against their retry horizon.',
  )
  @ApiAnswer(200, 'Resumed', ResumedDto, { accountId: 'team-b', paused: false, pausedAt: null, pauseReason: null, retriesDueNow: 2 })
  @ApiErrors(404)
  resumeAccountUploads(@Param('id') id: string): Promise<PauseState & { retriesDueNow: number }> {
    return this.accounts.resume(id);
  }

  @Get('status')
  @ApiEndpoint("An account's operational status", 'Weight budget use, clock offset, recent exchange errors, logs by status, pause, evidence sync progress.')
  @ApiAnswer(200, 'Status', AccountStatusDto, STATUS_EXAMPLE)
  @ApiErrors(404)
  getAccountStatus(@Param('id') id: string, @Query() _query: NoQueryDto): Promise<AccountStatus> {
    return this.accounts.status(id);
  }
}
