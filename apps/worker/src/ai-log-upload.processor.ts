import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AiLogUploader, type UploadResult } from '#libs/ai-log';
import { GatewayConfig } from '#libs/config';
import { JobName, type JobPayload, QueueName } from '#libs/queue';

/** Thin: unpacks the job and hands its log, or each log of a committed group, to AiLogUploader. */
@Processor(QueueName.AiLogUpload)
export class AiLogUploadProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AiLogUploadProcessor.name);
  private closing = false;
  constructor(
    private readonly uploader: AiLogUploader,
    private readonly config: GatewayConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    // Concurrency is configuration, so it is set on the running worker rather than in the decorator.
    this.worker.concurrency = this.config.uploadConcurrency;
    // Without a listener, a lost connection is an unhandled 'error' event that stops the worker's loop; with one,
    // BullMQ reconnects and carries on.
    this.worker.on('error', (error) => this.logger.warn(`queue connection: ${error.message}`));
  }

  /** First shutdown phase: stop taking jobs and let in-flight uploads finish and be recorded while the database is up. */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await this.worker.close();
  }

  async process(job: Job): Promise<UploadResult | { uploaded: number; left: number }> {
    if (job.name === JobName.QueueAiLogs) return this.uploadGroup((job.data as JobPayload[JobName.QueueAiLogs]).logIds);
    return this.uploader.upload((job.data as JobPayload[JobName.UploadAiLog]).logId);
  }

  /**
   * The first attempts of the logs one ingest transaction committed, one after the other (the account's weight budget
   * paces them anyway). A log another job claimed meanwhile is skipped by its claim. On shutdown the rest is left
   * `queued`: the relay queues it, as it does for a group whose worker died. An unexpected failure (database down)
   * fails the job after the others were tried, and BullMQ retries it.
   */
  private async uploadGroup(logIds: string[]): Promise<{ uploaded: number; left: number }> {
    let done = 0;
    let failure: unknown;
    for (const id of logIds) {
      if (this.closing) break;
      await this.uploader.upload(id).catch((error: unknown) => (failure ??= error));
      done++;
    }
    if (failure) throw failure;
    return { uploaded: done, left: logIds.length - done };
  }
}
