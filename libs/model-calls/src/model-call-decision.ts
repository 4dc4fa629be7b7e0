import { findUnstorableText, parseJson, stringifyJson } from '#libs/common';
import type { StoredModelCallWithBodies } from './model-calls.repository.js';

/** The AI-log fields a decision's model calls fill, when the agent leaves them out. */
export interface DecisionFromCalls {
  model: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  /** '' when the last call answered no text: a log that needs it then gets noExplanation's error. */
  explanation: string;
}

/**
 * Why a log left without an explanation cannot take one from its calls: the field, the rule, and the last call by its
 * place in modelCallIds and its id (the agent may not know which of its calls came last). Ends in "give explanation".
 */
export const noExplanation = (index: number, callId: string): string =>
  `explanation is left out, so it is filled from the last call's answer text, but modelCallIds[${index}] (${callId}) answered no text: give explanation`;

/** What an AI log may hold at most of its calls' requests and answers (input and output, as JSON text). */
export const MAX_FILLED_BYTES = 1_048_576;

export const tooLarge = (bytes: number) =>
  `the calls' requests and answers come to ${bytes} bytes, more than a log holds (${MAX_FILLED_BYTES}): post input and output yourself`;

/**
 * The log of a decision made with these calls, in the order the agent named them: `model` the models that answered,
 * `input` each call's request (its JSON, numbers as written), `output` each answer's text with its id, model and usage,
 * and `explanation` the last answer's text fitted to `maxExplanation` UTF-16 units ('' if none). A call without a whole answer to
 * read (failed, cancelled, not 2xx) is an error naming it, as is a log that would outgrow MAX_FILLED_BYTES.
 */
export function decisionFromCalls(calls: StoredModelCallWithBodies[], maxExplanation: number): DecisionFromCalls | { error: string; index?: number } {
  const texts: string[] = [];
  for (const [index, call] of calls.entries()) {
    // A span has no HTTP status: its outcome is its status (ERROR: failed).
    const http = call.source === 'otlp' || (call.httpStatus !== null && call.httpStatus >= 200 && call.httpStatus <= 299);
    if (call.outcome !== 'answered' || !http) {
      const status = call.source === 'otlp' ? 'span status ERROR' : `HTTP ${call.httpStatus ?? 'none'}`;
      return { index, error: `model call ${call.id} has no answer to fill the log from (${call.outcome}, ${status})` };
    }
    // A proxied call that asked no model (GET /models, say) answered no decision, whatever its answer holds: a GET of
    // a stored completion would present an old answer as this one. A span is a model call by its kind.
    if (call.source !== 'otlp' && call.requestedModel === null) {
      return { index, error: `model call ${call.id} asked no model (${call.method} ${call.path}): name the calls that answered the decision` };
    }
    const text = call.source === 'otlp' ? spanAnswerText(call.responseBody) : call.responseEncoding === 'utf8' ? answerText(call.responseBody) : undefined;
    texts.push(text ?? '');
  }
  // `source` says what backs each call: the provider's bytes as the proxy passed them, or a span the agent reported.
  const input = { modelCalls: calls.map((call) => ({ id: call.id, source: call.source, request: requestOf(call.requestBody) })) };
  const output = {
    modelCalls: calls.map((call, i) => ({
      id: call.id,
      responseId: call.responseId,
      model: call.answeredModel ?? call.requestedModel,
      text: texts[i],
      usage: { promptTokens: call.promptTokens, completionTokens: call.completionTokens, totalTokens: call.totalTokens },
    })),
  };
  // What a log cannot store fails here, naming the call, not at the commit (where a batch would fail whole).
  for (const [index, call] of calls.entries()) {
    const unstorable = findUnstorableText({ request: input.modelCalls[index].request, answer: output.modelCalls[index] }, '');
    if (unstorable) return { index, error: `model call ${call.id}: its ${unstorable.message}, so no log can hold it: post input and output yourself` };
  }
  // stringifyJson: a request read losslessly holds bigints, which JSON.stringify throws on.
  const bytes = Buffer.byteLength(stringifyJson(input)) + Buffer.byteLength(stringifyJson(output));
  if (bytes > MAX_FILLED_BYTES) {
    return { error: tooLarge(bytes) };
  }
  const models = [...new Set(calls.map((call) => call.answeredModel ?? call.requestedModel ?? 'unknown'))];
  return { model: models.join(', '), input, output, explanation: fit(texts.at(-1)!.trim(), maxExplanation) };
}

/** The request's JSON, numbers as written; a body that is not JSON, as its text. */
function requestOf(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

/**
 * The text an answer holds: a chat completion's message, a Responses answer's output text, or the same assembled from
 * a stream's events (chat's `delta.content`, Responses' `response.output_text.delta`). Undefined for anything else.
 */
export function answerText(body: string): string | undefined {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{')) return textOf(safeParse(trimmed));
  const parts: string[] = [];
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (!line.startsWith('data:')) continue;
    const event = safeParse(line.slice(5).trim());
    const delta = at(event, 'choices', 0, 'delta', 'content') ?? (at(event, 'type') === 'response.output_text.delta' ? at(event, 'delta') : undefined);
    if (typeof delta === 'string') parts.push(delta);
  }
  return parts.length > 0 ? parts.join('') : undefined;
}

/**
 * The text of a span's answer (its output attribute, docs/model-calls.md): the assistant messages' text parts
 * (gen_ai.output.messages), their `content` (the older gen_ai.completion, OpenLLMetry's indexed messages), OpenInference's
 * `message.content`, a provider's answer as JSON (output.value), or the attribute's plain text.
 */
export function spanAnswerText(body: string): string | undefined {
  if (body.trim() === '') return undefined;
  const parsed = safeParse(body);
  if (typeof parsed === 'string') return parsed;
  if (typeof parsed !== 'object' || parsed === null) return body;
  const texts = Array.isArray(parsed) ? parsed.flatMap(messageTexts) : messageTexts(parsed);
  if (texts.length > 0) return texts.join('');
  return Array.isArray(parsed) ? undefined : textOf(parsed);
}

/** The text of one message, in any of the conventions' shapes. */
function messageTexts(message: unknown): string[] {
  const content = at(message, 'content') ?? at(message, 'message.content') ?? at(message, 'message', 'content');
  if (typeof content === 'string') return [content];
  const parts = at(message, 'parts') ?? content;
  if (!Array.isArray(parts)) return [];
  return parts
    .filter((part) => at(part, 'type') === 'text' || at(part, 'type') === 'output_text')
    .map((part) => at(part, 'content') ?? at(part, 'text'))
    .filter((text): text is string => typeof text === 'string');
}

function textOf(answer: unknown): string | undefined {
  const message = at(answer, 'choices', 0, 'message', 'content');
  if (typeof message === 'string') return message;
  const outputText = at(answer, 'output_text');
  if (typeof outputText === 'string') return outputText;
  const output = at(answer, 'output');
  if (!Array.isArray(output)) return undefined;
  const texts = output
    .flatMap((item) => {
      const content = at(item, 'content');
      return Array.isArray(content) ? content : [];
    })
    .filter((part) => at(part, 'type') === 'output_text' && typeof at(part, 'text') === 'string')
    .map((part) => at(part, 'text') as string);
  return texts.length > 0 ? texts.join('') : undefined;
}

/** value[k1][k2]... while each step is an object or an array; undefined past anything else. */
function at(value: unknown, ...path: Array<string | number>): unknown {
  let here = value;
  for (const key of path) {
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<string | number, unknown>)[key];
  }
  return here;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** At most `max` UTF-16 units, cut at a code point and ending in '…' when cut. */
export function fit(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…`;
}
