import { Injectable, NotFoundException } from '@nestjs/common';
import { AccountPausesRepository } from '#libs/accounts';
import { AdminLogsRepository, AiLogRepository, LogStatsRepository, type StatusCounts } from '#libs/ai-log';
import { EvidenceService, type StreamStateView } from '#libs/evidence';
import { type BudgetUsage, type WeexClient } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import { DueLogsQueue } from './due-logs-queue.js';
import { clockOffsetOf } from './exchange-probe.js';
import { withTimeLimit } from './time-limit.js';

const RECENT_ERRORS = 10;
const BUDGET_READ_MS = 2_000;
const CLOCK_READ_MS = 2_000;

export interface PauseState {
  accountId: string;
  paused: boolean;
  pausedAt: string | null;
  /**
   * Why, while paused: `admin`, or `ip_not_allowlisted` (WEEX answered HTTP 521 to this server's IP: uploads are
   * held until an admin resumes them or the worker's probe finds the exchange answering).
   */
  pauseReason: string | null;
}

export interface AccountStatus extends PauseState {
  name: string;
  logs: StatusCounts;
  /** This process's view of the account's weight budget: shared by every process with REDIS_URL, its own without. */
  weightBudget: BudgetUsage | null;
  weightBudgetError?: string;
  /**
   * The exchange's clock minus this process's, in ms: as the account's client last measured it for signing, or else
   * estimated now from one server-time call; null without a client or an answer.
   */
  clockOffsetMs: number | null;
  recentErrors: Array<{
    logId: string;
    at: string;
    outcome: string;
    target: string;
    httpStatus: number | null;
    exchangeCode: string | null;
    exchangeMessage: string | null;
  }>;
  evidenceSync: StreamStateView[];
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Pausing and resuming an account's uploads, and its state at a glance. */
@Injectable()
export class AccountOperationsService {
  constructor(
    private readonly accounts: AccountPausesRepository,
    private readonly logs: AdminLogsRepository,
    private readonly stats: LogStatsRepository,
    private readonly aiLogs: AiLogRepository,
    private readonly queue: DueLogsQueue,
    private readonly clients: WeexAccountClients,
    private readonly evidence: EvidenceService,
  ) {}

  /** Workers upload nothing for the account from now on; uploads already sent finish. Pausing twice keeps the first time. */
  async pause(accountId: string): Promise<PauseState> {
    const row = await this.accounts.setPaused(accountId, true);
    if (!row) throw new NotFoundException(`no account ${accountId}`);
    return { accountId, paused: true, pausedAt: iso(row.uploadsPausedAt), pauseReason: row.uploadsPauseReason };
  }

  /**
   * The account's drainer is woken, and its logs waiting out a retry's backoff are due now (the others were due all
   * along); `retriesDueNow` says how many. The time they waited paused does not count against their retry horizon.
   */
  async resume(accountId: string): Promise<PauseState & { retriesDueNow: number }> {
    const row = await this.accounts.setPaused(accountId, false);
    if (!row) throw new NotFoundException(`no account ${accountId}`);
    const retriesDueNow = await this.aiLogs.retriesDueNow(accountId);
    await this.queue.wake([accountId]);
    return { accountId, paused: false, pausedAt: null, pauseReason: null, retriesDueNow };
  }

  async status(accountId: string): Promise<AccountStatus> {
    const account = await this.accounts.find(accountId);
    if (!account) throw new NotFoundException(`no account ${accountId}`);
    const client = this.clients.forAccount(accountId);
    const [logs, failures, sync, budget, clockOffsetMs] = await Promise.all([
      this.stats.counts(accountId),
      this.logs.recentFailedAttempts(accountId, RECENT_ERRORS),
      this.evidence.syncState(accountId),
      client
        ? withTimeLimit(client.budget.usage(), BUDGET_READ_MS, 'the weight budget').then(
            (usage) => ({ usage }),
            (error: Error) => ({ error: error.message }),
          )
        : undefined,
      this.clockOffset(client),
    ]);
    return {
      accountId,
      name: account.name,
      paused: account.uploadsPausedAt !== null,
      pausedAt: iso(account.uploadsPausedAt),
      pauseReason: account.uploadsPauseReason,
      logs,
      weightBudget: budget && 'usage' in budget ? budget.usage : null,
      ...(budget && 'error' in budget ? { weightBudgetError: budget.error } : {}),
      clockOffsetMs,
      recentErrors: failures.map((f) => ({
        logId: f.logId,
        at: f.startedAt.toISOString(),
        outcome: f.outcome,
        target: f.target,
        httpStatus: f.httpStatus,
        exchangeCode: f.exchangeCode,
        exchangeMessage: f.exchangeMessage,
      })),
      // Only the streams that have run; the evidence endpoint also lists the ones that never did.
      evidenceSync: sync.streams.filter((s) => s.lastRunAt !== null),
    };
  }

  private async clockOffset(client: WeexClient | undefined): Promise<number | null> {
    return client ? clockOffsetOf(client, CLOCK_READ_MS) : null;
  }
}
