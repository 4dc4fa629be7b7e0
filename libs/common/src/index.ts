export * from './json.js';
export * from './uuid-v7.js';
export * from './log-levels.js';
export * from './secret-file.js';
