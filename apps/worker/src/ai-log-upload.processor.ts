import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AiLogRelay, AiLogUploader, type UploadResult } from '#libs/ai-log';
import { GatewayConfig } from '#libs/config';
import { JobName, type JobPayload, QueueName } from '#libs/queue';

/** Thin: unpacks the job and hands the log to AiLogUploader, or a committed group's logs to the relay. */
@Processor(QueueName.AiLogUpload)
export class AiLogUploadProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AiLogUploadProcessor.name);
  constructor(
    private readonly uploader: AiLogUploader,
    private readonly relay: AiLogRelay,
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

  async process(job: Job): Promise<UploadResult | { queued: number }> {
    if (job.name === JobName.QueueAiLogs) {
      // First attempts of the logs one ingest transaction committed, under the ids the relay uses for them.
      const { logIds } = job.data as JobPayload[JobName.QueueAiLogs];
      await this.relay.enqueue(logIds.map((id) => ({ id, attemptCount: 0 })));
      return { queued: logIds.length };
    }
    return this.uploader.upload((job.data as JobPayload[JobName.UploadAiLog]).logId);
  }
}
