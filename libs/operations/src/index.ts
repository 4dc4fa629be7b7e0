export * from './account-operations.service.js';
export * from './admin-log.view.js';
export * from './admin-logs.service.js';
export * from './health.service.js';
export * from './log-query.dto.js';
export * from './metrics.service.js';
export * from './operations.module.js';
export * from './queue-overview.service.js';
