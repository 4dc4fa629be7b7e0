import { Injectable, Logger } from '@nestjs/common';
import { AccountPausesRepository } from '#libs/accounts';
import { GatewayConfig } from '#libs/config';
import { AiLogStatus, type AiLog } from '#libs/database';
import { backoffDelay, type UploadAiLogResult, WeexApiError, type WeexClient, type WeightGrant } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import { AiLogRepository, type AttemptRecord } from './ai-log.repository.js';

/** `held`: the exchange refused this server's IP (HTTP 521), and the account's uploads are held until it answers. */
export type UploadResult = { status: 'uploaded' | 'failed' | 'held' } | { status: 'retrying'; retryInMs: number };

/** The pause reason of an account whose uploads WEEX's edge refuses with HTTP 521. */
export const IP_NOT_ALLOWLISTED = 'ip_not_allowlisted';

/** Sends one claimed log to the exchange and records what happened; testable without a queue worker. */
@Injectable()
export class AiLogUploader {
  private readonly logger = new Logger(AiLogUploader.name);

  constructor(
    private readonly repository: AiLogRepository,
    private readonly pauses: AccountPausesRepository,
    private readonly clients: WeexAccountClients,
    private readonly config: GatewayConfig,
  ) {}

  /**
   * Sends the log, claimed with its weight in hand (AccountDrainer), through its account's client, and records the
   * attempt. Nothing is awaited between the claim and the request but the request's own building (and reading the
   * exchange's clock, only if it could not be read before the claim: then the attempt fails if it still cannot).
   */
  async send(log: AiLog, client: WeexClient, weight: WeightGrant): Promise<UploadResult> {
    const version = this.config.weexUploadApiVersion;
    const attempt = { url: client.uploadAiLogUrl(version), startedAt: new Date() };
    let res: UploadAiLogResult;
    try {
      // The attempt starts when the request goes out: its latency is the exchange's, never a wait for the clock or budget.
      res = await client.uploadAiLog(toRequest(log), version, { weight, onSend: () => (attempt.startedAt = new Date()) });
    } catch (error) {
      if (error instanceof WeexApiError) {
        // Credentials rotated through another process reach this one at its next refresh; until then an auth refusal
        // may only mean this process's client is stale, and the log deserves another try with the new one.
        if (error.httpStatus === 521) return this.hold(log, attempt, error);
        const stale = error.kind === 'auth' && (await this.clients.replacedSince(log.accountId, client));
        return this.recordFailure(log, attempt, error, stale);
      }
      // Anything else failed before a request was sent: give the log back untouched.
      this.logger.warn(`log ${log.id} not sent: ${(error as Error).message}`);
      await this.repository.release(log.id, new Date(Date.now() + this.backoff(log.attemptCount)));
      throw error;
    }
    const finished = { ...attempt, target: attemptTarget(res.simulator, this.config), finishedAt: new Date() };
    const record: AttemptRecord = { ...finished, outcome: 'uploaded', httpStatus: res.httpStatus, exchangeCode: res.code, exchangeMessage: res.msg };
    await this.repository.finishAttempt(log.id, log.attemptCount, record, AiLogStatus.uploaded, null);
    return { status: 'uploaded' };
  }

  /**
   * HTTP 521 is WEEX's edge refusing this server's IP: an operator's problem, not the log's and not a passing outage.
   * The log waits, due again as soon as uploads resume (the wait does not count against its horizon), and
   * the account's uploads are held until an admin resumes them or UploadHoldProbe finds the exchange answering.
   */
  private async hold(log: AiLog, attempt: Pick<AttemptRecord, 'url' | 'startedAt'>, error: WeexApiError): Promise<UploadResult> {
    const record: AttemptRecord = {
      ...attempt,
      target: attemptTarget(error.details.simulator ?? false, this.config),
      finishedAt: new Date(),
      outcome: 'retryable',
      httpStatus: error.httpStatus,
      exchangeCode: error.code,
      exchangeMessage: error.message,
    };
    const reason = `${error.kind}: ${error.message}; uploads held (${IP_NOT_ALLOWLISTED}) until the exchange answers this server's IP`;
    await this.repository.finishAttempt(log.id, log.attemptCount, record, AiLogStatus.retrying, reason, new Date());
    if (await this.pauses.holdUploads(log.accountId, IP_NOT_ALLOWLISTED)) {
      this.logger.error(
        `ALERT account ${log.accountId}: uploads held (${IP_NOT_ALLOWLISTED}): ${attempt.url} answered HTTP 521, WEEX's answer to an IP ` +
          `not on the API key's allowlist. Allowlist this server's IP for the key; uploads resume when the exchange answers again, or on POST /admin/accounts/${log.accountId}/resume. Logs wait; none fails for this.`,
      );
    }
    return { status: 'held' };
  }

  private async recordFailure(
    log: AiLog,
    attempt: Pick<AttemptRecord, 'url' | 'startedAt'>,
    error: WeexApiError,
    staleCredentials = false,
  ): Promise<UploadResult> {
    const retryable = error.retryable || staleCredentials;
    const retryInMs = this.backoff(log.attemptCount);
    const nextAttemptAt = new Date(Date.now() + retryInMs);
    const giveUp = !retryable || (await this.pastHorizon(log, nextAttemptAt));
    const reason = `${error.kind}: ${error.message}${retryable && giveUp ? ` (gave up after ${log.attemptCount} attempts over the retry horizon)` : ''}`;
    const record: AttemptRecord = {
      ...attempt,
      target: attemptTarget(error.details.simulator ?? false, this.config),
      finishedAt: new Date(),
      outcome: error.kind === 'uncertain' ? 'uncertain' : retryable ? 'retryable' : 'permanent',
      httpStatus: error.httpStatus,
      exchangeCode: error.code,
      exchangeMessage: error.message,
    };
    // A retry is only its next_attempt_at: the account's drainer wakes for it (AccountDrainer).
    await this.repository.finishAttempt(log.id, log.attemptCount, record, giveUp ? AiLogStatus.failed : AiLogStatus.retrying, reason, nextAttemptAt);
    if (giveUp) {
      this.logger.warn(`log ${log.id} failed: ${reason}`);
      return { status: 'failed' };
    }
    return { status: 'retrying', retryInMs };
  }

  /**
   * Transient failures are retried until the horizon: the next attempt would start after it, so there is none. An
   * admin retry starts the horizon again, and the time the account's uploads were paused or held does not count.
   */
  private async pastHorizon(log: AiLog, nextAttemptAt: Date): Promise<boolean> {
    const start = log.retriedAt ?? log.receivedAt;
    const over = (pausedMs: number) => nextAttemptAt.getTime() - start.getTime() - pausedMs > this.config.uploadRetryHorizonMs;
    return over(0) && over(await this.pauses.pausedMsSince(log.accountId, start));
  }

  /** The client's backoff (exponential, half of it random) at UPLOAD_BACKOFF_MS, capped at UPLOAD_BACKOFF_MAX_MS. */
  private backoff(attempts: number): number {
    return backoffDelay(attempts, { baseDelayMs: this.config.uploadBackoffMs, maxDelayMs: this.config.uploadBackoffMaxMs });
  }
}

function toRequest(log: AiLog) {
  return {
    orderId: log.orderId?.toString(),
    stage: log.stage,
    model: log.model,
    input: log.input,
    output: log.output,
    explanation: log.explanation,
  };
}

/** Where an attempt went: the simulator when it said it answered, or in sandbox mode; else the exchange. */
export function attemptTarget(simulatorAnswered: boolean, config: GatewayConfig): AttemptRecord['target'] {
  return simulatorAnswered || config.sandbox ? 'simulator' : 'exchange';
}
