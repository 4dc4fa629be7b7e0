import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QueueName } from '#libs/queue';
import { queueWakeups } from './upload-job.js';

/** Wakes accounts' drainers through the upload queue (queueWakeups): one queue write for any number of accounts. */
@Injectable()
export class UploadWakeups {
  constructor(@InjectQueue(QueueName.AiLogUpload) private readonly queue: Queue) {}

  /** Wakes each account's drainer now, or after `delayMs`; `bringForward` as in queueWakeups. */
  wake(accountIds: string[], delayMs = 0, bringForward = true): Promise<void> {
    return queueWakeups(this.queue, accountIds, delayMs, bringForward);
  }
}
