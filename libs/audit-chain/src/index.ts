export * from './canonical-json.js';
export * from './chain.js';
export * from './checkpoint-signing.js';
export * from './verify-export.js';
