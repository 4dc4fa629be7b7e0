export * from './api-docs.js';
export * from './decorators.js';
