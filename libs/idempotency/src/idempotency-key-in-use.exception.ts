import { HttpException } from '@nestjs/common';

/** How long a client should wait before retrying a key in flight: an ingest request commits within a second or so. */
export const KEY_IN_USE_RETRY_AFTER_S = 1;

/** 409: this Idempotency-Key's first request has not committed yet; HttpExceptionFilter sends Retry-After. */
export class IdempotencyKeyInUseException extends HttpException {
  readonly retryAfterS = KEY_IN_USE_RETRY_AFTER_S;

  constructor() {
    super({ code: 'IDEMPOTENCY_KEY_IN_USE', message: 'a request with this Idempotency-Key is still in flight; retry later' }, 409);
  }
}
