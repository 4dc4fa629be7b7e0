export * from './error-body.js';
export * from './http-app.js';
export * from './http-exception.filter.js';
export * from './validate-body.js';
export * from './validate-query.js';
export * from './validation-failed.exception.js';
export * from './request-error.js';
export * from './take-body.js';
