export * from './queue-backend.js';
export * from './queue-names.js';
export * from './queue.module.js';
