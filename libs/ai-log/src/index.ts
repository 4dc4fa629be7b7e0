export * from './ai-log.module.js';
export * from './ai-log.service.js';
export * from './ai-log-uploader.service.js';
export * from './ai-log.view.js';
export * from './create-ai-log.dto.js';
export * from './order-id.js';
export * from './ai-log-relay.service.js';
export * from './ai-log-batch.js';
