export * from './weight-budget.js';
export * from './sliding-span.js';
export * from './lined-budget.js';
export * from './memory-weight-budget.js';
export * from './redis-weight-budget.js';
