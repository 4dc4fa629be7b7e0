import type { WeexApiError } from '#libs/weex-client';

/**
 * A call refused for lack of request weight, with how long to wait (for Retry-After): either the account's weight
 * budget would not free up in time, so nothing was sent, or the exchange itself answered 429 (`cause`). Either way
 * the exchange did nothing.
 */
export class ExchangeRateLimitError extends Error {
  override readonly name = 'ExchangeRateLimitError';

  private constructor(
    readonly operation: string,
    readonly retryAfterMs: number,
    message: string,
    readonly exchangeError?: WeexApiError,
  ) {
    super(message, { cause: exchangeError });
  }

  /** Our budget for the account would not have let the call through in time; nothing was sent. */
  static budget(operation: string, retryAfterMs: number): ExchangeRateLimitError {
    return new ExchangeRateLimitError(operation, retryAfterMs, `the account's exchange request budget is used up; ${operation} was not sent`);
  }

  /** The exchange answered 429 (after the client's retries, for a read). */
  static exchange(error: WeexApiError, retryAfterMs: number): ExchangeRateLimitError {
    return new ExchangeRateLimitError(error.operation, retryAfterMs, `the exchange rate-limited ${error.operation} (HTTP 429)`, error);
  }

  /** Whole seconds, at least 1, as Retry-After carries them. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.retryAfterMs / 1000));
  }
}
