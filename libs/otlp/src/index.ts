export * from './decode-json.js';
export * from './decode-protobuf.js';
export * from './otlp-answer.js';
export * from './otlp-request.error.js';
export type * from './otlp-span.js';
export * from './attribute-json.js';
export * from './gen-ai-span.js';
export * from './span-decision.js';
