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
    removeOnFail: 1_000,
  };
}
