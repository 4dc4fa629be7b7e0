export * from './idempotency.interceptor.js';
export * from './idempotency.module.js';
export * from './idempotency.repository.js';
