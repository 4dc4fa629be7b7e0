export * from './canonical-json.js';
export * from './chain.js';
export * from './chain-walker.js';
export * from './checkpoint-signing.js';
export * from './export-csv.js';
export * from './export-format.js';
export * from './receipt.js';
export * from './verify-export.js';
