import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QUEUE_BACKEND, type QueueBackend, QueueName } from '#libs/queue';
import { LogStatsRepository, type StatusCounts } from '#libs/ai-log';
import { withTimeLimit } from './time-limit.js';

const COUNTS_WAIT_MS = 2_000;
/** Every state BullMQ 6 counts. It has no `paused` state: a paused queue keeps its jobs `waiting` (see `paused`). */
const JOB_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'completed', 'failed'] as const;

export interface QueueOverview {
  queue: string;
  backend: 'redis' | 'postgres';
  /** BullMQ's job counts by state: waiting, active, delayed, prioritized, waiting-children, completed, failed. */
  jobs: Record<string, number> | null;
  /** Whether the whole BullMQ queue is paused (workers take nothing); null when the store did not answer. */
  paused: boolean | null;
  /** Why `jobs` is null: the queue's store is away or slow. */
  jobsError?: string;
  /** The truth: logs by status in PostgreSQL. The queue only wakes workers, and may hold fewer jobs than due logs. */
  logs: StatusCounts;
}

/** The upload queue seen from both sides: BullMQ's jobs and PostgreSQL's logs. */
@Injectable()
export class QueueOverviewService {
  constructor(
    @InjectQueue(QueueName.AiLogUpload) private readonly queue: Queue,
    @Inject(QUEUE_BACKEND) private readonly backend: QueueBackend,
    private readonly stats: LogStatsRepository,
  ) {}

  async overview(): Promise<QueueOverview> {
    const [jobs, logs] = await Promise.all([
      this.jobCounts().then(
        (counts) => ({ counts }),
        (error: Error) => ({ error: error.message }),
      ),
      this.stats.counts(),
    ]);
    const paused = 'counts' in jobs ? await withTimeLimit(this.queue.isPaused(), COUNTS_WAIT_MS, 'the queue').catch(() => null) : null;
    return {
      queue: QueueName.AiLogUpload,
      backend: this.backend.kind,
      jobs: 'counts' in jobs ? jobs.counts : null,
      paused,
      ...('error' in jobs ? { jobsError: jobs.error } : {}),
      logs,
    };
  }

  /** Throws when the queue's store is not connected or does not answer in time (ioredis would wait for it). */
  async jobCounts(): Promise<Record<string, number>> {
    if (!this.backend.ready()) throw new Error(`the queue's ${this.backend.kind} store is not connected or not answering`);
    return withTimeLimit(this.queue.getJobCounts(...JOB_STATES), COUNTS_WAIT_MS, 'the queue');
  }
}
