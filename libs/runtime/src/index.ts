export * from './prepare-runtime.js';
export * from './runtime.module.js';
