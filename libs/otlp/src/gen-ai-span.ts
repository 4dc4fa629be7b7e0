import { attributeBytes, attributeJson } from './attribute-json.js';
import type { AttributeValue, Attributes, OtlpSpan } from './otlp-span.js';
import { weexRuleBroken } from './span-decision.js';

/** What a span that records a model call says about it, in the conventions' words (docs/model-calls.md maps them). */
export interface GenAiCall {
  provider: string | null;
  operation: string | null;
  requestedModel: string | null;
  answeredModel: string | null;
  responseId: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  /** The prompt (input messages) and the answer (output messages): the attribute's text, or its value as JSON. */
  input: string;
  output: string;
  /** Seconds from the request to the first chunk of a streamed answer (gen_ai.response.time_to_first_chunk). */
  timeToFirstChunkS: number | null;
  /** The span's weex.* attributes, for the service that turns a call into an AI log. */
  weex: { orderId: string | null; stage: string | null; explanation: string | null };
}

/** A span of a model call that cannot be recorded, and why. */
export interface SpanRejection {
  reason: string;
}

/** Operations of OpenTelemetry's GenAI conventions that are a call to a model (not embeddings, tools or agents). */
const INFERENCE_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'completion']);
/** OpenLLMetry's `llm.request.type` of a model call. */
const TRACELOOP_REQUEST_TYPES = new Set(['chat', 'completion']);
const MAX_TOKENS = 2 ** 31 - 1;

/**
 * Whether the span records a call to a model, under any of the conventions: OpenInference's span kind LLM, an
 * inference operation of OpenTelemetry's GenAI conventions (chat, text_completion, generate_content), OpenLLMetry's
 * `llm.request.type` chat or completion, or else (older instrumentations set no operation) a requested model named.
 * A span that says it is something else (an agent, a tool, a retriever, an embedding) is not one.
 */
export function isModelCallSpan(a: Attributes): boolean {
  const openInferenceKind = a.get('openinference.span.kind');
  if (typeof openInferenceKind === 'string') return openInferenceKind.toUpperCase() === 'LLM';
  const operation = a.get('gen_ai.operation.name');
  if (typeof operation === 'string') return INFERENCE_OPERATIONS.has(operation);
  const requestType = a.get('llm.request.type');
  if (typeof requestType === 'string') return TRACELOOP_REQUEST_TYPES.has(requestType);
  if (a.has('traceloop.span.kind')) return false;
  return a.has('gen_ai.request.model') || a.has('gen_ai.response.model') || a.has('llm.model_name');
}

/**
 * Reads a model call's span. A value larger than `attributeLimit` bytes anywhere in the span's attributes or events
 * rejects the span: it would be stored (the prompt and answer are), and a limit that clipped it would store a prompt
 * that is not the one sent.
 */
export function readGenAiSpan(span: OtlpSpan, attributeLimit: number): GenAiCall | SpanRejection {
  const a = span.attributes;
  const oversized = oversizedAttribute(a, attributeLimit) ?? firstOf(span.events.map((e) => oversizedAttribute(e.attributes, attributeLimit)));
  if (oversized)
    return { reason: `attribute ${oversized.key} holds ${oversized.bytes} bytes or more, more than OTLP_ATTRIBUTE_VALUE_LIMIT_BYTES (${attributeLimit})` };
  const eventAttribute = (eventName: string, key: string) => span.events.find((e) => e.name === eventName && e.attributes.has(key))?.attributes.get(key);
  const details = (key: string) => eventAttribute('gen_ai.client.inference.operation.details', key);
  const inputTokens = tokens(a, ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'llm.token_count.prompt', 'llm.usage.prompt_tokens']);
  const outputTokens = tokens(a, ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'llm.token_count.completion', 'llm.usage.completion_tokens']);
  const total = tokens(a, ['llm.usage.total_tokens', 'llm.token_count.total', 'gen_ai.usage.total_tokens']);
  const firstChunk = a.get('gen_ai.response.time_to_first_chunk');
  return {
    provider: text(a, ['gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system']),
    operation: text(a, ['gen_ai.operation.name', 'llm.request.type']),
    requestedModel: text(a, ['gen_ai.request.model', 'llm.request.model_name', 'llm.model_name']),
    answeredModel: text(a, ['gen_ai.response.model', 'llm.response.model_name']),
    responseId: text(a, ['gen_ai.response.id']),
    inputTokens,
    outputTokens,
    totalTokens: total ?? (inputTokens !== null && outputTokens !== null && inputTokens + outputTokens <= MAX_TOKENS ? inputTokens + outputTokens : null),
    input: body([
      a.get('gen_ai.input.messages'),
      details('gen_ai.input.messages'),
      eventAttribute('gen_ai.content.prompt', 'gen_ai.prompt'),
      a.get('gen_ai.prompt'),
      indexed(a, 'gen_ai.prompt'),
      a.get('input.value'),
      indexed(a, 'llm.input_messages'),
      a.get('traceloop.entity.input'),
    ]),
    output: body([
      a.get('gen_ai.output.messages'),
      details('gen_ai.output.messages'),
      eventAttribute('gen_ai.content.completion', 'gen_ai.completion'),
      a.get('gen_ai.completion'),
      indexed(a, 'gen_ai.completion'),
      a.get('output.value'),
      indexed(a, 'llm.output_messages'),
      a.get('traceloop.entity.output'),
    ]),
    timeToFirstChunkS: typeof firstChunk === 'number' && Number.isFinite(firstChunk) && firstChunk >= 0 ? firstChunk : null,
    weex: {
      orderId: orderId(a.get('weex.order_id')),
      stage: weexText(a, 'weex.stage', attributeLimit),
      explanation: weexText(a, 'weex.explanation', attributeLimit),
    },
  };
}

const firstOf = <T>(values: Array<T | undefined>): T | undefined => values.find((v) => v !== undefined);

function oversizedAttribute(a: Attributes, limit: number): { key: string; bytes: number } | undefined {
  for (const [key, value] of a) {
    // weex.* values are the span's decision's, judged with it (span-decision.ts): the call stands without them.
    if (key.startsWith('weex.')) continue;
    const bytes = attributeBytes(value, limit);
    if (bytes > limit) return { key, bytes };
  }
  return undefined;
}

/** The first of `keys` whose value is a non-empty string. */
function text(a: Attributes, keys: string[]): string | null {
  for (const key of keys) {
    const value = a.get(key);
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** A weex.* text the call keeps beside it, when its decision takes it (span-decision.ts); else null. */
function weexText(a: Attributes, key: 'weex.stage' | 'weex.explanation', limit: number): string | null {
  const value = text(a, [key]);
  return value !== null && weexRuleBroken(key, value, limit) === undefined ? value : null;
}

/** The first of `keys` that holds a token count (an int, or a double that is one: some SDKs send floats). */
function tokens(a: Attributes, keys: string[]): number | null {
  for (const key of keys) {
    const value = a.get(key);
    const n = typeof value === 'bigint' ? (value >= 0n && value <= BigInt(MAX_TOKENS) ? Number(value) : null) : value;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_TOKENS) return n;
  }
  return null;
}

/** A message list flattened into attributes, `<prefix>.<i>.<field>` (OpenLLMetry, OpenInference), as an array. */
function indexed(a: Attributes, prefix: string): AttributeValue[] | undefined {
  const start = `${prefix}.`;
  const items: Attributes[] = [];
  for (const [key, value] of a) {
    if (!key.startsWith(start)) continue;
    const match = /^(\d{1,4})\.(.+)$/.exec(key.slice(start.length));
    if (!match) continue;
    (items[Number(match[1])] ??= new Map()).set(match[2], value);
  }
  const present = items.filter((item) => item !== undefined);
  return present.length > 0 ? present : undefined;
}

/** The first value given: a string as it is, anything else as JSON; '' when none is. */
function body(candidates: Array<AttributeValue | undefined>): string {
  const value = candidates.find((v) => v !== undefined && v !== null && v !== '');
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : attributeJson(value);
}

/** weex.order_id as decimal digits: a string of digits, or an int (exact, as int64). */
function orderId(value: AttributeValue | undefined): string | null {
  if (typeof value === 'bigint' && value > 0n) return value.toString();
  if (typeof value === 'string' && /^\d{1,20}$/.test(value.trim())) return value.trim();
  return null;
}
