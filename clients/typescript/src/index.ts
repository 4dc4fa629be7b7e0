export { Gateway, type CallOptions, type Evidence, type GatewayOptions, type LogOptions } from './gateway.js';
export { BatchRejectedError, GatewayError, UploadWaitError, type AiLog, type ErrorBody, type FieldError } from './errors.js';
export { EXPLANATION_UNITS, fitExplanation, type Decision, type OrderId } from './decision.js';
export { parseRetryAfter } from './retry.js';
export type { components, operations, paths } from './schema.js';
