export * from './redis-weight-budget.js';
export * from './weex.module.js';
