export * from './nest-logger.js';
export * from './pino-logger.js';
export * from './secret-scrubber.js';
