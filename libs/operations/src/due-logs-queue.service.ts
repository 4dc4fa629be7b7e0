import { Inject, Injectable, Logger } from '@nestjs/common';
import { AiLogRelay, type DueLog } from '#libs/ai-log';
import { QUEUE_BACKEND, type QueueBackend } from '#libs/queue';
import { withTimeLimit } from './time-limit.js';

const ENQUEUE_WAIT_MS = 2_000;

/**
 * Queues logs an admin made due (a retry, a resume) at once, as the relay would. They are committed as due first, so
 * a queue that is away or slow only delays them: the relay queues them from PostgreSQL when it answers again.
 */
@Injectable()
export class DueLogsQueue {
  private readonly logger = new Logger(DueLogsQueue.name);

  constructor(
    private readonly relay: AiLogRelay,
    @Inject(QUEUE_BACKEND) private readonly backend: QueueBackend,
  ) {}

  async queueNow(logs: DueLog[]): Promise<void> {
    if (logs.length === 0 || !this.backend.ready()) return;
    try {
      await withTimeLimit(this.relay.enqueue(logs), ENQUEUE_WAIT_MS, 'the queue');
    } catch (error) {
      this.logger.warn(`${logs.length} due log(s) left to the relay (first ${logs[0].id}): ${(error as Error).message}`);
    }
  }
}
