export * from './error-body.js';
export * from './http-app.js';
export * from './http-exception.filter.js';
export * from './validation.pipe.js';
export * from './request-error.js';
export * from './take-body.js';
export * from './security-headers.js';
export * from './disconnect-signal.js';
