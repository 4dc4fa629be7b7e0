export * from './prepare-runtime.js';
export * from './runtime.module.js';
export * from './run-main.js';
export * from './startup-failure.js';
