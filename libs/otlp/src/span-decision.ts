import { isStorableText } from '#libs/common';
import { attributeBytes } from './attribute-json.js';
import type { SpanRejection } from './gen-ai-span.js';
import type { AttributeValue, OtlpSpan } from './otlp-span.js';

/** What a span with `weex.order_id` says: its trace's model calls led to this order. Values as sent, checked later. */
export interface SpanDecision {
  traceId: string;
  spanId: string;
  /** weex.order_id: a string as sent, an int as its decimal digits (never through a JS number); else what came. */
  orderId: string;
  stage: string | null;
  explanation: string | null;
  /** Why its weex.* attributes can make no log, when their type or size says so already; the log's rules come later. */
  refused: string | null;
}

const ZERO_ID = /^0*$/;
const KEYS = ['weex.order_id', 'weex.stage', 'weex.explanation'] as const;

/**
 * The decision a span records, when it carries `weex.order_id` (any span: a model call's, or the agent's own around
 * it); undefined when it does not. A span without valid ids is a rejection (it cannot be recorded); a weex.* value of
 * the wrong type or size, or text PostgreSQL cannot store, makes a decision that is refused, named in `refused`, so
 * that the team sees it listed.
 */
export function spanDecision(span: OtlpSpan, attributeLimit: number): SpanDecision | SpanRejection | undefined {
  const a = span.attributes;
  if (!a.has('weex.order_id')) return undefined;
  if (span.traceId.length !== 32 || ZERO_ID.test(span.traceId) || span.spanId.length !== 16 || ZERO_ID.test(span.spanId)) {
    return { reason: 'its trace id must be 16 bytes and its span id 8 bytes, neither all zeroes' };
  }
  const orderId = a.get('weex.order_id');
  const decision: SpanDecision = { traceId: span.traceId, spanId: span.spanId, orderId: shown(orderId), stage: null, explanation: null, refused: null };
  for (const key of KEYS) {
    const value = a.get(key);
    if (value === undefined) continue;
    const refused = weexRuleBroken(key, value, attributeLimit);
    if (refused !== undefined) decision.refused ??= refused;
    else if (key === 'weex.stage') decision.stage = value as string;
    else if (key === 'weex.explanation') decision.explanation = value as string;
  }
  return decision;
}

/** The rule a weex.* value breaks (its type, its size, or text PostgreSQL cannot store); undefined when none. */
export function weexRuleBroken(key: (typeof KEYS)[number], value: AttributeValue, attributeLimit: number): string | undefined {
  if (key === 'weex.order_id') {
    const why = orderIdRule(value);
    if (why) return why;
  } else if (typeof value !== 'string') return `${key} must be a string, not ${describe(value)}`;
  const bytes = attributeBytes(value, attributeLimit);
  if (bytes > attributeLimit) return `attribute ${key} holds ${bytes} bytes or more, more than OTLP_ATTRIBUTE_VALUE_LIMIT_BYTES (${attributeLimit})`;
  if (typeof value === 'string' && !isStorableText(value)) return `${key} holds U+0000 or a lone surrogate, which PostgreSQL cannot store`;
  return undefined;
}

function orderIdRule(value: AttributeValue): string | undefined {
  if (typeof value === 'bigint') return value < 1n ? `weex.order_id must be a positive integer, not ${value}` : undefined;
  if (typeof value === 'string') return undefined;
  const why = typeof value === 'number' ? ' (a double cannot hold every order id exactly: send a string)' : '';
  return `weex.order_id must be a string of digits or an int, not ${describe(value)}${why}`;
}

/** The order id as a listing shows it: a string or a number as it came, or what kind of value came instead. */
function shown(value: AttributeValue | undefined): string {
  if (typeof value === 'string' || typeof value === 'bigint' || typeof value === 'number') return String(value);
  return `(${describe(value)})`;
}

function describe(value: AttributeValue | undefined): string {
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof Map) return 'a kvlist';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'empty';
  if (typeof value === 'bigint') return 'an int';
  return typeof value === 'number' ? 'a double' : `a ${typeof value}`;
}
