export * from './field-error.js';
export * from './validate-body.js';
export * from './validate-query.js';
export * from './validation-failed.exception.js';
