export * from './answer-facts.js';
export * from './llm-gateway.exception.js';
export * from './llm-proxy.service.js';
export * from './model-call-chain.js';
export * from './model-call.view.js';
export * from './model-calls-query.dto.js';
export * from './model-calls.module.js';
export * from './model-calls.service.js';
