import { createHash } from 'node:crypto';
import type { AgentIdentity } from '#libs/accounts';
import { isStorableText, uuidv7 } from '#libs/common';
import { type OtlpSpan, readGenAiSpan, type SpanRejection } from '#libs/otlp';
import type { NewModelCall } from './model-calls.repository.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const NANOS_PER_MS = 1_000_000n;
const ZERO_ID = /^0*$/;
/** How far past the gateway's clock a span may end: clocks disagree, but a call cannot end in the future. */
const FUTURE_SKEW_MS = 3_600_000;

/**
 * The model call a GenAI span records, or why it cannot be recorded. The prompt and the answer stand as the call's
 * request and response bodies (their SHA-256s in its chain link); the span's ids, name and weex.* attributes are
 * kept beside them. A span whose status is ERROR is a `failed` call.
 */
export function spanModelCall(span: OtlpSpan, agent: AgentIdentity, attributeLimit: number, nowMs = Date.now()): NewModelCall | SpanRejection {
  if (span.traceId.length !== 32 || ZERO_ID.test(span.traceId) || span.spanId.length !== 16 || ZERO_ID.test(span.spanId)) {
    return { reason: 'its trace id must be 16 bytes and its span id 8 bytes, neither all zeroes' };
  }
  if (span.startTimeUnixNano === 0n) return { reason: 'it has no startTimeUnixNano' };
  if (span.endTimeUnixNano < span.startTimeUnixNano) return { reason: 'its endTimeUnixNano is before its startTimeUnixNano' };
  if (span.endTimeUnixNano > BigInt(nowMs + FUTURE_SKEW_MS) * NANOS_PER_MS) {
    return { reason: "its endTimeUnixNano is more than an hour after the gateway's clock" };
  }
  const call = readGenAiSpan(span, attributeLimit);
  if ('reason' in call) return call;
  const startMs = Number(span.startTimeUnixNano / NANOS_PER_MS);
  const endMs = Number(span.endTimeUnixNano / NANOS_PER_MS);
  const failed = span.statusCode === 2;
  const errorType = span.attributes.get('error.type');
  const record: NewModelCall = {
    source: 'otlp',
    id: uuidv7(),
    accountId: agent.accountId,
    agentKeyId: agent.agentKeyId,
    method: null,
    path: null,
    upstreamUrl: null,
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId === '' ? null : span.parentSpanId,
    spanName: span.name,
    serviceName: typeof span.resource.get('service.name') === 'string' ? (span.resource.get('service.name') as string) : null,
    provider: call.provider,
    operation: call.operation,
    weexOrderId: call.weex.orderId,
    weexStage: call.weex.stage,
    weexExplanation: call.weex.explanation,
    requestedModel: call.requestedModel,
    answeredModel: call.answeredModel,
    responseId: call.responseId,
    httpStatus: null,
    outcome: failed ? 'failed' : 'answered',
    error: failed ? span.statusMessage || (typeof errorType === 'string' && errorType) || 'the span ended with status ERROR' : null,
    promptTokens: call.inputTokens,
    completionTokens: call.outputTokens,
    totalTokens: call.totalTokens,
    startedAt: new Date(startMs).toISOString(),
    firstByteAt: firstByteAt(startMs, endMs, call.timeToFirstChunkS),
    finishedAt: new Date(endMs).toISOString(),
    requestSha256: sha256(call.input),
    responseSha256: sha256(call.output),
    requestBody: call.input,
    responseBody: call.output,
    responseEncoding: 'utf8',
  };
  const unstorable = Object.entries(record).find(([, value]) => typeof value === 'string' && !isStorableText(value));
  if (unstorable) return { reason: `its ${unstorable[0]} holds U+0000 or a lone surrogate, which PostgreSQL cannot store` };
  return record;
}

/** When the first chunk came: gen_ai.response.time_to_first_chunk after the start, if that falls within the span. */
function firstByteAt(startMs: number, endMs: number, seconds: number | null): string | null {
  if (seconds === null) return null;
  const at = startMs + Math.round(seconds * 1000);
  return at <= endMs ? new Date(at).toISOString() : null;
}
