export * from './add-checkpoint-body.js';
export * from './file-state-store.js';
export * from './known-logs.js';
export { MAX_TREE_SIZE } from './numbers.js';
export * from './state-file-format.js';
export * from './state-store.js';
export * from './witness.js';
export * from './witness-refusal.js';
