import { Inject, Injectable, Logger } from '@nestjs/common';
import { UploadWakeups } from '#libs/ai-log';
import { QUEUE_BACKEND, type QueueBackend } from '#libs/queue';
import { withTimeLimit } from './time-limit.js';

const ENQUEUE_WAIT_MS = 2_000;

/**
 * Wakes the drainers of accounts whose logs an admin made due (a retry, a resume), as the relay would. The logs are
 * committed as due first, so a queue that is away or slow only delays them: the relay wakes their accounts from
 * PostgreSQL when it answers again.
 */
@Injectable()
export class DueLogsQueue {
  private readonly logger = new Logger(DueLogsQueue.name);

  constructor(
    private readonly wakeups: UploadWakeups,
    @Inject(QUEUE_BACKEND) private readonly backend: QueueBackend,
  ) {}

  async wake(accountIds: string[]): Promise<void> {
    if (accountIds.length === 0 || !this.backend.ready()) return;
    try {
      await withTimeLimit(this.wakeups.wake(accountIds), ENQUEUE_WAIT_MS, 'the queue');
    } catch (error) {
      this.logger.warn(`account(s) ${accountIds.join(', ')} left to the relay: ${(error as Error).message}`);
    }
  }
}
