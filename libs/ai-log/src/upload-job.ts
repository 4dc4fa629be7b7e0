import type { JobsOptions } from 'bullmq';

/**
 * One job per attempt, with an id of its own so that scheduling the next attempt never collides with the job that is
 * finishing. Unexpected failures (database down) are retried by BullMQ itself.
 */
export function uploadJobOptions(logId: string, attempt: number, delayMs = 0): JobsOptions {
  return {
    jobId: `${logId}-${attempt}`,
    delay: delayMs,
    attempts: 10,
    backoff: { type: 'exponential', delay: 1_000, jitter: 0.5 },
    removeOnComplete: true,
    // A job that failed for good (say the database was down through all its attempts) must not keep its id: the relay
    // queues the log again under the same id, and BullMQ ignores an add whose id is still held by a failed job.
    // Every attempt that reached the exchange is recorded in PostgreSQL, so nothing is lost with the failed job.
    removeOnFail: true,
  };
}
