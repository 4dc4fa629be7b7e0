import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AiLogUploader, type UploadResult } from '#libs/ai-log';
import { GatewayConfig } from '#libs/config';
import { type JobPayload, type JobName, QueueName } from '#libs/queue';

/** Thin: unpacks the job and hands the log to AiLogUploader. */
@Processor(QueueName.AiLogUpload)
export class AiLogUploadProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AiLogUploadProcessor.name);
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
    await this.worker.close();
  }

  process(job: Job<JobPayload[JobName.UploadAiLog]>): Promise<UploadResult> {
    return this.uploader.upload(job.data.logId);
  }
}
