import type { TokenUsage } from './answer-facts.js';
import type { ModelCallSource } from './model-call-chain.js';
import type { StoredModelCall, StoredModelCallWithBodies } from './model-calls.repository.js';

/** A call's link in its account's chain of model calls. */
export interface ModelCallChainView {
  seq: string;
  prevHash: string;
  hash: string;
}

/** A model call as listed: everything but its bodies, whose SHA-256s it carries. A span's fields are null on the proxy's calls and the proxy's on spans. */
export interface ModelCallSummary {
  id: string;
  accountId: string;
  agentKeyId: string;
  source: ModelCallSource;
  method: string | null;
  path: string | null;
  upstreamUrl: string | null;
  traceId: string | null;
  spanId: string | null;
  parentSpanId: string | null;
  spanName: string | null;
  serviceName: string | null;
  provider: string | null;
  operation: string | null;
  weexOrderId: string | null;
  weexStage: string | null;
  weexExplanation: string | null;
  requestedModel: string | null;
  answeredModel: string | null;
  responseId: string | null;
  httpStatus: number | null;
  outcome: string;
  error: string | null;
  usage: TokenUsage;
  startedAt: string;
  firstByteAt: string | null;
  finishedAt: string;
  requestSha256: string;
  responseSha256: string;
  chain: ModelCallChainView;
}

/**
 * One model call with its bodies: the request's JSON text and the answer (a stream's SSE text, or base64); for a span,
 * its input and output messages.
 */
export interface ModelCallView extends ModelCallSummary {
  requestBody: string;
  responseBody: string;
  responseEncoding: string;
}

export function toModelCallSummary(call: StoredModelCall): ModelCallSummary {
  return {
    id: call.id,
    accountId: call.accountId,
    agentKeyId: call.agentKeyId,
    source: call.source,
    method: call.method,
    path: call.path,
    upstreamUrl: call.upstreamUrl,
    traceId: call.traceId,
    spanId: call.spanId,
    parentSpanId: call.parentSpanId,
    spanName: call.spanName,
    serviceName: call.serviceName,
    provider: call.provider,
    operation: call.operation,
    weexOrderId: call.weexOrderId,
    weexStage: call.weexStage,
    weexExplanation: call.weexExplanation,
    requestedModel: call.requestedModel,
    answeredModel: call.answeredModel,
    responseId: call.responseId,
    httpStatus: call.httpStatus,
    outcome: call.outcome,
    error: call.error,
    usage: { promptTokens: call.promptTokens, completionTokens: call.completionTokens, totalTokens: call.totalTokens },
    startedAt: call.startedAt,
    firstByteAt: call.firstByteAt,
    finishedAt: call.finishedAt,
    requestSha256: call.requestSha256,
    responseSha256: call.responseSha256,
    chain: { seq: call.seq, prevHash: call.prevHash, hash: call.hash },
  };
}

export function toModelCallView(call: StoredModelCallWithBodies): ModelCallView {
  return { ...toModelCallSummary(call), requestBody: call.requestBody, responseBody: call.responseBody, responseEncoding: call.responseEncoding };
}
