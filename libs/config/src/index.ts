export * from './app-config.js';
export * from './config.error.js';
export * from './config.module.js';
export * from './env-variables.js';
export * from './load-config.js';
export * from './gateway-config.js';
export * from './failpoints.js';
