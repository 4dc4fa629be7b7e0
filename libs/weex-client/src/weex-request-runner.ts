import { backoffDelay, DEFAULT_RETRY, type RetryOptions, sleep } from './backoff.js';
import { BudgetWaitTooLong, type WeightBudget, type WeightGrant } from '#libs/weight-budget';
import { weightOf } from './budget.js';
import { OPERATIONS, type OperationName } from './operations.js';
import type { WeexResponse } from './response-reader.js';
import { WeexApiError, type WeexErrorKind } from './weex-api.error.js';
import type { CallOptions } from './types/common.types.js';
import type { WeexTransport } from './weex-transport.js';

/** One call of an operation, its query string or body already built (and validated). */
export interface WeexCall extends CallOptions {
  operation: OperationName;
  query?: string;
  body?: string;
  /** Default true; the public market endpoints are not signed. */
  signed?: boolean;
}

/** What the per-domain functions need: a way to make a call, and the time (for defaults such as "now"). */
export interface WeexCaller {
  call(call: WeexCall): Promise<WeexResponse>;
  now(): number;
}

/** Failures after which a read is tried again. */
const RETRY_KINDS: ReadonlySet<WeexErrorKind> = new Set(['transient', 'unavailable', 'rate_limited']);
/** How many times a call takes its weight anew when the take's answer came back stale, before it goes anyway. */
const STALE_RETAKES = 3;

/**
 * Runs calls: takes the weight from the budget first, sends, and on failure decides. A 429 pauses the whole budget.
 * Reads (write: false) are retried with exponential backoff and jitter; writes are sent once and the caller decides.
 */
export class WeexRequestRunner implements WeexCaller {
  private readonly retry: Required<RetryOptions>;
  private syncing?: Promise<unknown>;

  constructor(
    private readonly transport: WeexTransport,
    private readonly budget: WeightBudget,
    retry: RetryOptions = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.retry = { ...DEFAULT_RETRY, ...retry };
  }

  now(): number {
    return this.clock();
  }

  async call(call: WeexCall): Promise<WeexResponse> {
    const op = OPERATIONS[call.operation];
    const attempts = op.write ? 1 : Math.max(1, this.retry.maxAttempts);
    let refused: WeexApiError | undefined;
    let weight = call.weight;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          if ((call.signed ?? true) && this.transport.clockOffsetMs === undefined) await this.syncClock();
          // Weight taken too long ago no longer covers the call (WeightGrant.fresh): back it goes, and the call takes it anew.
          if (weight && !weight.fresh()) {
            await weight.giveBack();
            weight = undefined;
          }
          if (!weight) weight = await this.acquireFresh(call.operation, call.signal, call.maxBudgetWaitMs);
          call.onSend?.();
          // Spent from here: a retry takes its own, and never gives back what this attempt sent.
          weight = undefined;
          return await this.transport.request({
            operation: call.operation,
            method: op.method,
            path: op.path,
            host: op.host,
            query: call.query,
            body: call.body,
            signed: call.signed ?? true,
            signal: call.signal,
          });
        } catch (error) {
          // A retry that the budget would hold back too long: what the caller must see is why it was retried.
          if (error instanceof BudgetWaitTooLong && refused) throw refused;
          if (!(error instanceof WeexApiError)) throw error;
          refused = error;
          const delayMs = backoffDelay(attempt, this.retry);
          if (error.kind === 'rate_limited') await this.pauseBudget(delayMs);
          if (attempt >= attempts || !RETRY_KINDS.has(error.kind)) throw error;
          // After a 429 the next acquire waits out the pause; other failures wait here.
          if (error.kind !== 'rate_limited') await sleep(delayMs, call.signal);
        }
      }
    } finally {
      // Weight taken for an attempt that never went out (a clock sync that failed, say) goes back.
      await weight?.giveBack().catch(() => undefined);
    }
  }

  /**
   * What a call waits for before it is sent: the exchange's clock (before the first signed call), then its weight.
   * Taken on its own, it lets a caller hold the weight before it commits to the call, and send it at once. The clock
   * is best effort here: a call that finds it still unknown measures it again, and reports the failure.
   */
  async prepare(operation: OperationName, options: CallOptions & { signed?: boolean } = {}): Promise<WeightGrant> {
    if ((options.signed ?? true) && this.transport.clockOffsetMs === undefined) await this.syncClock().catch(() => undefined);
    return this.acquire(operation, options.signal, options.maxBudgetWaitMs);
  }

  /**
   * The first signed call measures the clock offset, paying the server-time weight like any other call. Shared by
   * concurrent callers, so no caller's signal cancels it.
   */
  private syncClock(): Promise<unknown> {
    this.syncing ??= this.acquire('serverTime')
      .then(() => this.transport.syncClock())
      .finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  /**
   * Weight for a call sent at once. A take whose answer came back late (a slow Redis) is already stale: back it goes,
   * and the call takes it anew, a few times at most; then it goes with what it has (the exchange's 429 pauses the
   * budget if that was too late).
   */
  private async acquireFresh(operation: OperationName, signal?: AbortSignal, maxWaitMs?: number): Promise<WeightGrant> {
    let weight = await this.acquire(operation, signal, maxWaitMs);
    for (let retake = 0; retake < STALE_RETAKES && !weight.fresh(); retake++) {
      await weight.giveBack();
      weight = await this.acquire(operation, signal, maxWaitMs);
    }
    return weight;
  }

  private async acquire(operation: OperationName, signal?: AbortSignal, maxWaitMs?: number): Promise<WeightGrant> {
    try {
      return await this.budget.acquire(operation, weightOf(operation), { signal, maxWaitMs });
    } catch (cause) {
      if (signal?.aborted || cause instanceof BudgetWaitTooLong) throw cause;
      const message = `weight budget unavailable, nothing sent: ${(cause as Error)?.message ?? String(cause)}`;
      throw new WeexApiError('unavailable', operation, message, { cause });
    }
  }

  /** The 429 is what the caller must see; a budget that cannot be paused fails the next acquire instead. */
  private async pauseBudget(ms: number): Promise<void> {
    try {
      await this.budget.pause(ms);
    } catch {
      return;
    }
  }
}
