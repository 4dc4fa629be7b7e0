import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { GatewayConfig } from '#libs/config';
import { AiLogStatus, type AiLog } from '#libs/database';
import { JobName, QueueName } from '#libs/queue';
import { UPLOAD_AI_LOG_PATHS, type UploadAiLogResult, WeexAccountClients, WeexApiError } from '#libs/weex-client';
import { AiLogRepository, type AttemptRecord } from './ai-log.repository.js';
import { uploadJobOptions } from './upload-job.js';

export type UploadResult = { status: 'uploaded' | 'failed' | 'skipped' | 'paused' } | { status: 'retrying'; retryInMs: number };

/** Uploads one log to the exchange and records what happened; testable without a queue worker. */
@Injectable()
export class AiLogUploader {
  private readonly logger = new Logger(AiLogUploader.name);

  constructor(
    private readonly repository: AiLogRepository,
    private readonly clients: WeexAccountClients,
    private readonly config: GatewayConfig,
    @InjectQueue(QueueName.AiLogUpload) private readonly queue: Queue,
  ) {}

  async upload(logId: string): Promise<UploadResult> {
    const claimed = await this.repository.claim(logId, this.config.uploadClaimMs);
    if (!claimed) return { status: 'skipped' };
    const { log } = claimed;
    if (claimed.paused) {
      // Paused by an admin: nothing is sent and no attempt recorded. Due again a relay interval later, so that a resume
      // racing with this release still finds it soon; until the resume the relay leaves the account's logs alone.
      await this.repository.release(log.id, new Date(Date.now() + this.config.relayIntervalMs));
      return { status: 'paused' };
    }
    const client = await this.clients.resolve(log.accountId);
    if (!client) {
      // Credentials that this process cannot read yet (an account just added elsewhere, or SECRETS_KEY wrong): wait.
      this.logger.warn(`log ${log.id} not sent: no exchange credentials for account ${log.accountId} in this process`);
      await this.repository.release(log.id, new Date(Date.now() + this.backoff(log.attemptCount + 1)));
      return { status: 'skipped' };
    }
    const startedAt = new Date();
    const version = this.config.weexUploadApiVersion;
    const attempt = { url: `${client.transport.baseUrl}${UPLOAD_AI_LOG_PATHS[version]}`, startedAt };
    let res: UploadAiLogResult;
    try {
      // Through the account's client, so that uploads spend its shared weight budget and wait for it.
      res = await client.uploadAiLog(toRequest(log), version);
    } catch (error) {
      if (error instanceof WeexApiError) {
        // Credentials rotated through another process reach this one at its next refresh; until then an auth refusal
        // may only mean this process's client is stale, and the log deserves another try with the new one.
        const stale = error.kind === 'auth' && (await this.clients.replacedSince(log.accountId, client));
        return this.recordFailure(log, attempt, error, stale);
      }
      // Anything else failed before a request was sent (the budget's store, say): give the log back untouched.
      this.logger.warn(`log ${log.id} not sent: ${(error as Error).message}`);
      await this.repository.release(log.id, new Date(Date.now() + this.backoff(log.attemptCount)));
      throw error;
    }
    const finished = { ...attempt, target: target(res.simulator, this.config), finishedAt: new Date() };
    const record: AttemptRecord = { ...finished, outcome: 'uploaded', httpStatus: res.httpStatus, exchangeCode: res.code, exchangeMessage: res.msg };
    await this.repository.finishAttempt(log.id, record, AiLogStatus.uploaded, null);
    return { status: 'uploaded' };
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
    // Transient failures are retried until the horizon: the next attempt would start after it, so there is none.
    // An admin retry starts the horizon again.
    const horizonStart = log.retriedAt ?? log.receivedAt;
    const pastHorizon = nextAttemptAt.getTime() - horizonStart.getTime() > this.config.uploadRetryHorizonMs;
    const giveUp = !retryable || pastHorizon;
    const reason = `${error.kind}: ${error.message}${retryable && giveUp ? ` (gave up after ${log.attemptCount} attempts over the retry horizon)` : ''}`;
    const record: AttemptRecord = {
      ...attempt,
      target: target(error.details.simulator ?? false, this.config),
      finishedAt: new Date(),
      outcome: error.kind === 'uncertain' ? 'uncertain' : retryable ? 'retryable' : 'permanent',
      httpStatus: error.httpStatus,
      exchangeCode: error.code,
      exchangeMessage: error.message,
    };
    await this.repository.finishAttempt(log.id, record, giveUp ? AiLogStatus.failed : AiLogStatus.retrying, reason, nextAttemptAt);
    if (giveUp) {
      this.logger.warn(`log ${log.id} failed: ${reason}`);
      return { status: 'failed' };
    }
    await this.queue.add(JobName.UploadAiLog, { logId: log.id }, uploadJobOptions(log.id, log.attemptCount, retryInMs));
    return { status: 'retrying', retryInMs };
  }

  /** Exponential backoff with jitter: half the capped delay is fixed, the other half random. */
  private backoff(attempts: number): number {
    const capped = Math.min(this.config.uploadBackoffMaxMs, this.config.uploadBackoffMs * 2 ** Math.max(0, attempts - 1));
    return Math.round(capped / 2 + (Math.random() * capped) / 2);
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

function target(simulatorAnswered: boolean, config: GatewayConfig): 'simulator' | 'exchange' {
  return simulatorAnswered || config.sandbox ? 'simulator' : 'exchange';
}
