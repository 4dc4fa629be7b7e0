export * from './api-docs.js';
export * from './decorators.js';
export * from './error-body.dto.js';
export * from './schema-properties.js';
