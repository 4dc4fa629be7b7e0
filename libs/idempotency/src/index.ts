export * from './idempotency.service.js';
export * from './idempotency.module.js';
export * from './idempotency.repository.js';
export * from './idempotency-key-taken.error.js';
export * from './idempotency-key-in-use.exception.js';
