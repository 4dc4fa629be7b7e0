import { setTimeout as delay } from 'node:timers/promises';

/** How a read is retried on a transient, unavailable or rate-limited answer. Writes are never retried. */
export interface RetryOptions {
  /** Attempts per read, the first included; default 4. */
  maxAttempts?: number;
  /** Delay before the second attempt, doubled each time; default 250 ms. */
  baseDelayMs?: number;
  /** Cap on any one delay; default 5 000 ms. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 5_000 };

/**
 * Exponential backoff with jitter after failed attempt `attempt` (1-based): the capped delay is
 * `min(maxDelayMs, baseDelayMs * 2^(attempt-1))`; half of it is fixed and half random, so the result lies in
 * [capped / 2, capped].
 */
export function backoffDelay(attempt: number, options: RetryOptions = {}, random: () => number = Math.random): number {
  const { baseDelayMs, maxDelayMs } = { ...DEFAULT_RETRY, ...options };
  const capped = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(capped / 2 + (random() * capped) / 2);
}

/** Waits `ms`, or rejects with an AbortError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(Math.max(0, ms), undefined, { signal });
}
