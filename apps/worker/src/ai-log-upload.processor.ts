import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type Type } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AccountDrainer } from '#libs/ai-log';
import type { GatewayConfig } from '#libs/config';
import { JobName, type JobPayload, QueueName } from '#libs/queue';

/**
 * Thin: consumes the upload queue, whose jobs each wake one account, and hands the account to AccountDrainer. Up to
 * UPLOAD_ACCOUNT_CONCURRENCY accounts are drained at once. Registered through `aiLogUploadProcessor(config)`, which
 * gives it its worker options.
 */
@Injectable()
export class AiLogUploadProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AiLogUploadProcessor.name);
  private readonly shutdown = new AbortController();

  constructor(private readonly drainer: AccountDrainer) {
    super();
  }

  /** Jobs are taken once every module has started (the accounts' exchange clients are loaded at bootstrap). */
  onApplicationBootstrap(): void {
    this.worker.run().catch((error: Error) => this.onError(error));
  }

  /** First shutdown phase: take no more jobs, and let drains finish their in-flight uploads and record them while the database is up. */
  async onModuleDestroy(): Promise<void> {
    this.shutdown.abort();
    await this.worker.close();
  }

  async process(job: Job): Promise<number> {
    // A job of another name (an earlier version's, per log) carries nothing the relay does not find in PostgreSQL.
    if (job.name !== JobName.DrainAccount) return 0;
    return this.drainer.drain((job.data as JobPayload[JobName.DrainAccount]).accountId, this.shutdown.signal);
  }

  /** Without a listener, a lost connection is an unhandled 'error' event that stops the worker's loop; with one, BullMQ reconnects and carries on. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`queue connection: ${error.message}`);
  }
}

/**
 * The processor with its worker options from `config`. @nestjs/bullmq reads a worker's options only from its class's
 * `@Processor` (never from a provider), so the class that carries them is declared here, once per config.
 */
export function aiLogUploadProcessor(config: GatewayConfig): Type<AiLogUploadProcessor> {
  // The job of a worker that died holds its account (its wake-ups wait behind it) until BullMQ finds it stalled: its
  // lock (renewed every half of it) lapses within half a claim's lease, and the check every half of that finds it,
  // so the account's other logs flow again before the dead worker's claims lapse. A live worker that loses its lock
  // in a stall costs only a second drain of the account meanwhile: claims skip each other's logs.
  const lockMs = Math.ceil(config.uploadClaimMs / 2);
  @Processor(QueueName.AiLogUpload, {
    concurrency: config.uploadAccountConcurrency,
    lockDuration: lockMs,
    stalledInterval: Math.ceil(lockMs / 2),
    // Nest builds the worker at module init; it takes jobs from onApplicationBootstrap, as it did when built by hand.
    autorun: false,
  })
  class ConfiguredAiLogUploadProcessor extends AiLogUploadProcessor {}
  return ConfiguredAiLogUploadProcessor;
}
