import { isStorableText } from '#libs/common';
/** Token counts as a provider reports them: chat's prompt/completion, or the Responses API's input/output. */
export interface TokenUsage {
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown): number | null =>
  Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 2 ** 31 - 1 ? (value as number) : null;

/**
 * What an answer says about itself, read from its JSON (one object, or each event of a stream): the provider's id of
 * the answer (the first one seen), the model that answered and the usage (the last ones seen: a stream names them
 * again, and its final chunk or `response.completed` event carries the usage).
 */
export class AnswerFacts {
  responseId: string | null = null;
  answeredModel: string | null = null;
  usage: TokenUsage = { promptTokens: null, completionTokens: null, totalTokens: null };

  read(value: unknown): void {
    if (!isObject(value)) return;
    // The Responses API's events carry the response inside: `{"type":"response.completed","response":{...}}`.
    const answer = isObject(value.response) ? value.response : value;
    // Text PostgreSQL cannot store (U+0000, a lone surrogate, escaped in the JSON) is not a model or an id: left out.
    if (typeof answer.id === 'string' && isStorableText(answer.id) && this.responseId === null) this.responseId = answer.id;
    if (typeof answer.model === 'string' && isStorableText(answer.model)) this.answeredModel = answer.model;
    if (isObject(answer.usage)) {
      const u = answer.usage;
      const promptTokens = count(u.prompt_tokens ?? u.input_tokens);
      const completionTokens = count(u.completion_tokens ?? u.output_tokens);
      const total = count(u.total_tokens);
      const totalTokens = total ?? (promptTokens !== null && completionTokens !== null ? promptTokens + completionTokens : null);
      this.usage = { promptTokens, completionTokens, totalTokens };
    }
  }

  /** Reads a whole JSON answer; text that is not JSON says nothing. */
  readText(text: string): void {
    try {
      this.read(JSON.parse(text));
    } catch {
      // An answer that is not JSON (an HTML error page of a proxy, audio) names no model or usage.
    }
  }
}
