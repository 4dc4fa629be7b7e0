import { ConflictException, Injectable } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { BudgetWaitTooLong, type CallOptions, OPERATIONS, type OperationName, WeexApiError, type WeexClient } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import { currentBudgetWaitMs } from './budget-wait.js';
import { ExchangeRateLimitError } from './exchange-rate-limit.error.js';

/** What the abort signal of a call that ran out of time carries. */
class CallDeadline extends Error {
  override readonly name = 'CallDeadline';
}

/**
 * Runs one exchange operation for an agent's account, bounded in time. The client waits for weight budget rather
 * than earn 429s; an API caller should not wait long, so a call whose budget will not free up within
 * WEEX_TIMEOUT_MS is refused as soon as the budget says so (429 with Retry-After), and every call is aborted after
 * twice that (the wait, then one request's timeout). Failures come out as WeexApiError or ExchangeRateLimitError for ExchangeErrorFilter.
 */
@Injectable()
export class ExchangeCallService {
  constructor(
    private readonly clients: WeexAccountClients,
    private readonly config: GatewayConfig,
  ) {}

  async run<T>(accountId: string, operation: OperationName, call: (client: WeexClient, options: CallOptions) => Promise<T>): Promise<T> {
    const client = await this.clients.resolve(accountId);
    if (!client) {
      throw new ConflictException({
        code: 'NO_EXCHANGE_CREDENTIALS',
        message: 'no exchange credentials for this account: the gateway cannot query or cancel for it',
      });
    }
    try {
      return await this.runWith(client, operation, call);
    } catch (error) {
      // Refused credentials, rotated meanwhile in another process: one more try with the new client. Safe for cancels
      // too, since the exchange refused the first request before acting on it.
      if (!(error instanceof WeexApiError && error.kind === 'auth')) throw error;
      const replaced = (await this.clients.replacedSince(accountId, client)) ? this.clients.forAccount(accountId) : undefined;
      if (!replaced) throw error;
      return this.runWith(replaced, operation, call);
    }
  }

  private async runWith<T>(client: WeexClient, operation: OperationName, call: (client: WeexClient, options: CallOptions) => Promise<T>): Promise<T> {
    const maxWaitMs = this.config.weexTimeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new CallDeadline(`no result within ${2 * maxWaitMs} ms`)), 2 * maxWaitMs);
    try {
      return await call(client, { signal: controller.signal, maxBudgetWaitMs: maxWaitMs });
    } catch (error) {
      if (error instanceof BudgetWaitTooLong) throw ExchangeRateLimitError.budget(operation, error.waitMs);
      throw await this.explain(error, client, operation, controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Turns a 429 into a Retry-After, and an aborted call into what is known of its outcome. */
  private async explain(error: unknown, client: WeexClient, operation: OperationName, signal: AbortSignal): Promise<unknown> {
    if (error instanceof WeexApiError) {
      if (error.kind !== 'rate_limited') return error;
      // The client paused the budget on the 429: the pause is how long to wait.
      return ExchangeRateLimitError.exchange(error, (await currentBudgetWaitMs(client.budget, operation)) ?? 1000);
    }
    if (!signal.aborted) return error;
    // The client rethrows the abort reason when a request in flight (or a call queued for budget) is aborted, and an
    // AbortError caused by it when one of its sleeps is cut short: waiting for budget or backing off, nothing in flight.
    const inSleep = (error as { name?: string; cause?: unknown })?.name === 'AbortError' && (error as { cause?: unknown }).cause === signal.reason;
    if (!inSleep && error !== signal.reason) return error;
    const wait = (await currentBudgetWaitMs(client.budget, operation)) ?? 0;
    // Writes never back off, so a cut sleep was the budget wait; a read was held back if the budget is still tight.
    if (OPERATIONS[operation].write ? inSleep : wait > 0) return ExchangeRateLimitError.budget(operation, wait);
    // A write may have been sent: its outcome is unknown (504), never "nothing happened".
    return new WeexApiError('uncertain', operation, `no result within ${2 * this.config.weexTimeoutMs} ms`, { cause: error });
  }
}
