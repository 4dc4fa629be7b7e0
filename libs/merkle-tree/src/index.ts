export * from './errors.js';
export * from './frontier.js';
export * from './hashing.js';
export * from './proofs.js';
export { MAX_SIZE } from './sizes.js';
export { type HashReader, type NodeRef, storedAt, subtreeRefs } from './stored.js';
export * from './verify.js';
