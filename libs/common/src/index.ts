export * from './json.js';
export * from './uuid-v7.js';
export * from './secret-file.js';
export * from './storable-text.js';
export * from './time.js';
export * from './group-commit.js';
