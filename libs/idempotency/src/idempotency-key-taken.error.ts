/** Thrown by a request's work when another request recorded its Idempotency-Key first: the work stored nothing. */
export class IdempotencyKeyTakenError extends Error {
  constructor() {
    super('another request recorded this Idempotency-Key first');
    this.name = 'IdempotencyKeyTakenError';
  }
}
