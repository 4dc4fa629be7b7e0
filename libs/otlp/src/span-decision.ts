import { attributeBytes } from './attribute-json.js';
import type { SpanRejection } from './gen-ai-span.js';
import type { AttributeValue, OtlpSpan } from './otlp-span.js';

/** What a span with `weex.order_id` says: its trace's model calls led to this order. Values as sent, checked later. */
export interface SpanDecision {
  traceId: string;
  spanId: string;
  /** weex.order_id: a string as sent, an int as its decimal digits (never through a JS number). */
  orderId: string;
  stage: string | null;
  explanation: string | null;
}

const ZERO_ID = /^0*$/;

/**
 * The decision a span records, when it carries `weex.order_id` (any span: a model call's, or the agent's own around
 * it); undefined when it does not. A value of the wrong type, or larger than `attributeLimit` bytes, is a rejection
 * naming the attribute; the rules of an AI log's fields are checked by the service that makes the log.
 */
export function spanDecision(span: OtlpSpan, attributeLimit: number): SpanDecision | SpanRejection | undefined {
  const a = span.attributes;
  if (!a.has('weex.order_id')) return undefined;
  if (span.traceId.length !== 32 || ZERO_ID.test(span.traceId) || span.spanId.length !== 16 || ZERO_ID.test(span.spanId)) {
    return { reason: 'its trace id must be 16 bytes and its span id 8 bytes, neither all zeroes' };
  }
  const orderId = a.get('weex.order_id');
  if (typeof orderId !== 'string' && typeof orderId !== 'bigint') {
    const why = typeof orderId === 'number' ? ' (a double cannot hold every order id exactly: send a string)' : '';
    return { reason: `weex.order_id must be a string of digits or an int, not ${describe(orderId)}${why}` };
  }
  if (typeof orderId === 'bigint' && orderId < 1n) return { reason: `weex.order_id must be a positive integer, not ${orderId}` };
  const fields: Record<'weex.stage' | 'weex.explanation', string | null> = { 'weex.stage': null, 'weex.explanation': null };
  for (const key of ['weex.order_id', 'weex.stage', 'weex.explanation'] as const) {
    const value = a.get(key);
    if (value === undefined) continue;
    if (key !== 'weex.order_id' && typeof value !== 'string') return { reason: `${key} must be a string, not ${describe(value)}` };
    const bytes = attributeBytes(value, attributeLimit);
    if (bytes > attributeLimit)
      return { reason: `attribute ${key} holds ${bytes} bytes or more, more than OTLP_ATTRIBUTE_VALUE_LIMIT_BYTES (${attributeLimit})` };
    if (key !== 'weex.order_id') fields[key] = value as string;
  }
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    orderId: orderId.toString(),
    stage: fields['weex.stage'],
    explanation: fields['weex.explanation'],
  };
}

function describe(value: AttributeValue | undefined): string {
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof Map) return 'a kvlist';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'empty';
  if (typeof value === 'bigint') return 'an int';
  return typeof value === 'number' ? 'a double' : `a ${typeof value}`;
}
