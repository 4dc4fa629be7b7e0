import type { JobsOptions } from 'bullmq';

const RETRIED_BY_BULLMQ: JobsOptions = {
  // Unexpected failures (database or Redis down) are retried by BullMQ itself.
  attempts: 10,
  backoff: { type: 'exponential', delay: 1_000, jitter: 0.5 },
  removeOnComplete: true,
  // A job that failed for good (say the database was down through all its attempts) must not keep its id: the relay
  // queues the log again under the same id, and BullMQ ignores an add whose id is still held by a failed job.
  // Every attempt that reached the exchange is recorded in PostgreSQL, so nothing is lost with the failed job.
  removeOnFail: true,
};

/**
 * One job per attempt, with an id of its own so that scheduling the next attempt never collides with the job that is
 * finishing.
 */
export function uploadJobOptions(logId: string, attempt: number, delayMs = 0): JobsOptions {
  return { ...RETRIED_BY_BULLMQ, jobId: `${logId}-${attempt}`, delay: delayMs };
}

/**
 * The job that carries the logs of one ingest transaction to a worker, which makes their first attempts. One job per
 * group keeps the API's answer path to one queue write however many logs the group holds, and spares the queue a job
 * per log; retries and relayed logs get jobs of their own (uploadJobOptions).
 */
export function queueLogsJobOptions(firstLogId: string): JobsOptions {
  return { ...RETRIED_BY_BULLMQ, jobId: `logs-${firstLogId}` };
}
