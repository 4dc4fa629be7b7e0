import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type Job, Worker } from 'bullmq';
import { AccountDrainer } from '#libs/ai-log';
import { GatewayConfig } from '#libs/config';
import { JobName, type JobPayload, QUEUE_BACKEND, type QueueBackend, QueueName } from '#libs/queue';

/**
 * Thin: consumes the upload queue, whose jobs each wake one account, and hands the account to AccountDrainer. Up to
 * UPLOAD_ACCOUNT_CONCURRENCY accounts are drained at once. The BullMQ worker is built here rather than by
 * `@Processor`, whose options are fixed at compile time: its lock follows UPLOAD_CLAIM_MS.
 */
@Injectable()
export class AiLogUploadProcessor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AiLogUploadProcessor.name);
  private readonly shutdown = new AbortController();
  private worker?: Worker;

  constructor(
    private readonly drainer: AccountDrainer,
    private readonly config: GatewayConfig,
    @Inject(QUEUE_BACKEND) private readonly backend: QueueBackend,
  ) {}

  onApplicationBootstrap(): void {
    // The job of a worker that died holds its account (its wake-ups wait behind it) until BullMQ finds it stalled: its
    // lock (renewed every half of it) lapses within half a claim's lease, and the check every half of that finds it,
    // so the account's other logs flow again before the dead worker's claims lapse. A live worker that loses its lock
    // in a stall costs only a second drain of the account meanwhile: claims skip each other's logs.
    const lockMs = Math.ceil(this.config.uploadClaimMs / 2);
    this.worker = new Worker(QueueName.AiLogUpload, (job) => this.process(job), {
      connection: this.backend.connection as never,
      prefix: this.backend.prefix,
      concurrency: this.config.uploadAccountConcurrency,
      lockDuration: lockMs,
      stalledInterval: Math.ceil(lockMs / 2),
    });
    // Without a listener, a lost connection is an unhandled 'error' event that stops the worker's loop; with one,
    // BullMQ reconnects and carries on.
    this.worker.on('error', (error) => this.logger.warn(`queue connection: ${error.message}`));
  }

  /** First shutdown phase: take no more jobs, and let drains finish their in-flight uploads and record them while the database is up. */
  async onModuleDestroy(): Promise<void> {
    this.shutdown.abort();
    await this.worker?.close();
  }

  async process(job: Job): Promise<number> {
    // A job of another name (an earlier version's, per log) carries nothing the relay does not find in PostgreSQL.
    if (job.name !== JobName.DrainAccount) return 0;
    return this.drainer.drain((job.data as JobPayload[JobName.DrainAccount]).accountId, this.shutdown.signal);
  }
}
