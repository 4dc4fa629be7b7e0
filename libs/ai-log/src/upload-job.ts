import type { JobsOptions, Queue } from 'bullmq';
import { JobName, type JobPayload } from '#libs/queue';

const HOUR_S = 3600;
const KEEP_COMPLETED = { age: 24 * HOUR_S, count: 1_000 };
const KEEP_FAILED = { age: 7 * 24 * HOUR_S, count: 5_000 };

/** What Queue.addBulk takes: one account's wake-up. */
interface AccountWakeup {
  name: JobName.DrainAccount;
  data: JobPayload[JobName.DrainAccount];
  opts: JobsOptions;
}

/**
 * The wake-ups of these accounts' drainers, now or after `delayMs`. The queue carries no logs, only which account has
 * work: one deduplication id per account keeps at most one wake-up waiting for it, so a backlog in one account is
 * one job, never a line in front of the others. A wake-up that comes while the account's drainer runs is kept and
 * starts it again when it ends (keepLastIfActive), so work committed during a drain is never missed; one that comes
 * while a later wake-up is scheduled brings that one forward (`bringForward`: new work), or leaves it (the relay's,
 * which only replaces lost wake-ups). A drainer never has two runs at once.
 */
function accountWakeups(accountIds: Iterable<string>, delayMs: number, bringForward: boolean): AccountWakeup[] {
  return [...new Set(accountIds)].map((accountId) => ({
    name: JobName.DrainAccount,
    data: { accountId },
    opts: {
      deduplication: { id: `account:${accountId}`, keepLastIfActive: true, reschedule: bringForward },
      delay: delayMs,
      // Unexpected failures (database or Redis down) are retried by BullMQ itself.
      attempts: 10,
      backoff: { type: 'exponential', delay: 1_000, jitter: 0.5 },
      // Kept for the queue dashboard (a finished wake-up frees its account's deduplication id all the same, and the
      // logs' state is all in PostgreSQL): completed ones for a day or the last 1,000, failed ones for a week.
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    },
  }));
}

/**
 * Queues the wake-ups of these accounts (accountWakeups) in one write: one `add` for one account, the common case
 * (a third of the CPU of an `addBulk`, which wraps its jobs in MULTI), one `addBulk` for several.
 */
export async function queueWakeups(queue: Queue, accountIds: Iterable<string>, delayMs = 0, bringForward = true): Promise<void> {
  const wakeups = accountWakeups(accountIds, delayMs, bringForward);
  if (wakeups.length === 1) await queue.add(wakeups[0].name, wakeups[0].data, wakeups[0].opts);
  else if (wakeups.length > 1) await queue.addBulk(wakeups);
}
