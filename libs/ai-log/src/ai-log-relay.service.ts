import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { JobName, QueueName } from '#libs/queue';
import { AiLogRepository, type DueLog } from './ai-log.repository.js';
import { uploadJobOptions } from './upload-job.js';

const BATCH = 500;

/**
 * The transactional outbox's relay: PostgreSQL says which logs are due, the queue only wakes workers. It queues the
 * due logs the queue cannot still hold: those received (or due) before the oldest job waiting in the queue, which
 * FIFO order would have started already. So a backlog is not queued a second time, while logs whose job was lost
 * (a Redis outage, FLUSHALL, a failed enqueue) or whose group job is being worked through are. Re-queuing is
 * idempotent (one job id per log and attempt), so every worker may run the relay.
 */
@Injectable()
export class AiLogRelay {
  constructor(
    private readonly repository: AiLogRepository,
    @InjectQueue(QueueName.AiLogUpload) private readonly queue: Queue,
  ) {}

  /**
   * Queues every log due before `now - graceMs` and before the oldest waiting job (less `graceMs`, for clock skew
   * between processes), in pages; returns how many were handed to the queue.
   */
  async relayDue(graceMs: number, maxPerRun = 50_000): Promise<number> {
    const [oldestWaiting] = await this.queue.getJobs(['waiting'], 0, 0, true);
    const dueBefore = new Date(Math.min(Date.now(), oldestWaiting?.timestamp ?? Infinity) - graceMs);
    let relayed = 0;
    let after: string | undefined;
    while (relayed < maxPerRun) {
      const due = await this.repository.findDue(dueBefore, BATCH, after);
      if (due.length === 0) break;
      await this.enqueue(due);
      relayed += due.length;
      after = due.at(-1)!.id;
    }
    return relayed;
  }

  /** Queues these logs now (an admin retry, a resume), under the job id of their next attempt, in batches. */
  async enqueue(logs: DueLog[]): Promise<void> {
    for (let i = 0; i < logs.length; i += BATCH) {
      await this.queue.addBulk(
        logs.slice(i, i + BATCH).map((log) => ({ name: JobName.UploadAiLog, data: { logId: log.id }, opts: uploadJobOptions(log.id, log.attemptCount) })),
      );
    }
  }
}
