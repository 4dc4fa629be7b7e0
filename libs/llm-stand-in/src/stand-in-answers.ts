import { createHash } from 'node:crypto';

/** The model the stand-in answers as, whatever model was asked for: records show both. */
export const STAND_IN_MODEL = 'stand-in-1';

/** What a request asked for, as the answers need it. */
export interface StandInPrompt {
  /** The request's bytes: the answer's ids derive from them, so that the same request gets the same answer. */
  body: string;
  /** Every text of the prompt (messages, input, instructions), in order. */
  texts: string[];
  /** stream_options.include_usage of a chat request: the last chunk then carries usage, as OpenAI's does. */
  includeUsage: boolean;
}

export interface Usage {
  prompt: number;
  completion: number;
}

/** Whitespace-separated words: the stand-in's tokens. */
const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** The answer's text and how many tokens each side counts; the same prompt always gets the same. */
export function standInAnswer(prompt: StandInPrompt): { tokens: string[]; usage: Usage } {
  const read = prompt.texts.flatMap(words).length;
  const tokens = words(`HOLD. The stand-in model read ${read} words of your prompt and has no view on the market.`).map((w, i) => (i ? ` ${w}` : w));
  return { tokens, usage: { prompt: read, completion: tokens.length } };
}

/** A stable id of the request, for `chatcmpl-...`, `resp_...` and `msg_...`. */
export const answerId = (prefix: string, body: string): string => `${prefix}${createHash('sha256').update(body).digest('hex').slice(0, 24)}`;

const now = () => Math.floor(Date.now() / 1000);
const chatUsage = (u: Usage) => ({ prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion });
const responseUsage = (u: Usage) => ({
  input_tokens: u.prompt,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: u.completion,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: u.prompt + u.completion,
});

/** `POST /chat/completions` without `stream`. */
export function chatCompletion(prompt: StandInPrompt): object {
  const { tokens, usage } = standInAnswer(prompt);
  return {
    id: answerId('chatcmpl-', prompt.body),
    object: 'chat.completion',
    created: now(),
    model: STAND_IN_MODEL,
    system_fingerprint: 'fp_stand_in',
    choices: [{ index: 0, message: { role: 'assistant', content: tokens.join(''), refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: chatUsage(usage),
  };
}

/** `POST /chat/completions` with `stream: true`: the chunks, then (when asked) one with usage only; `[DONE]` is the caller's. */
export function chatCompletionChunks(prompt: StandInPrompt): object[] {
  const { tokens, usage } = standInAnswer(prompt);
  const base = {
    id: answerId('chatcmpl-', prompt.body),
    object: 'chat.completion.chunk',
    created: now(),
    model: STAND_IN_MODEL,
    system_fingerprint: 'fp_stand_in',
  };
  const chunk = (delta: object, finish: string | null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(prompt.includeUsage ? { usage: null } : {}),
  });
  return [
    chunk({ role: 'assistant', content: '' }, null),
    ...tokens.map((token) => chunk({ content: token }, null)),
    chunk({}, 'stop'),
    ...(prompt.includeUsage ? [{ ...base, choices: [], usage: chatUsage(usage) }] : []),
  ];
}

/** One chunk of an endless chat stream (the slow model), the n-th. */
export function slowChunk(prompt: StandInPrompt, n: number): object {
  return {
    id: answerId('chatcmpl-', prompt.body),
    object: 'chat.completion.chunk',
    created: now(),
    model: STAND_IN_MODEL,
    choices: [{ index: 0, delta: n === 0 ? { role: 'assistant', content: 'tick' } : { content: ` tick${n}` }, logprobs: null, finish_reason: null }],
  };
}

function responseObject(prompt: StandInPrompt, status: 'in_progress' | 'completed'): Record<string, unknown> {
  const { tokens, usage } = standInAnswer(prompt);
  const done = status === 'completed';
  return {
    id: answerId('resp_', prompt.body),
    object: 'response',
    created_at: now(),
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    model: STAND_IN_MODEL,
    output: done ? [message(prompt, tokens.join(''), 'completed')] : [],
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    metadata: {},
    usage: done ? responseUsage(usage) : null,
  };
}

const message = (prompt: StandInPrompt, text: string, status: string) => ({
  type: 'message',
  id: answerId('msg_', prompt.body),
  status,
  role: 'assistant',
  content: status === 'completed' ? [{ type: 'output_text', text, annotations: [] }] : [],
});

/** `POST /responses` without `stream`. */
export const response = (prompt: StandInPrompt): object => responseObject(prompt, 'completed');

/** `POST /responses` with `stream: true`: its events in order, each with its `type` (the SSE event name) and number. */
export function responseEvents(prompt: StandInPrompt): Array<{ type: string } & Record<string, unknown>> {
  const { tokens } = standInAnswer(prompt);
  const text = tokens.join('');
  const item = { item_id: answerId('msg_', prompt.body), output_index: 0, content_index: 0 };
  const part = { type: 'output_text', text, annotations: [] };
  const events: Array<{ type: string } & Record<string, unknown>> = [
    { type: 'response.created', response: responseObject(prompt, 'in_progress') },
    { type: 'response.output_item.added', output_index: 0, item: message(prompt, '', 'in_progress') },
    { type: 'response.content_part.added', ...item, part: { ...part, text: '' } },
    ...tokens.map((delta) => ({ type: 'response.output_text.delta', ...item, delta })),
    { type: 'response.output_text.done', ...item, text },
    { type: 'response.content_part.done', ...item, part },
    { type: 'response.output_item.done', output_index: 0, item: message(prompt, text, 'completed') },
    { type: 'response.completed', response: responseObject(prompt, 'completed') },
  ];
  return events.map((event, n) => ({ ...event, sequence_number: n }));
}

/** An error as OpenAI writes it. */
export const openAiError = (message: string, type: string, code: string | null, param: string | null = null): object => ({
  error: { message, type, param, code },
});
