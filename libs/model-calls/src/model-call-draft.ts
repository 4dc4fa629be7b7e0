import { createHash } from 'node:crypto';
import { uuidv7 } from '#libs/common';
import { AnswerFacts } from './answer-facts.js';
import { NO_SPAN } from './model-call-chain.js';
import type { NewModelCall } from './model-calls.repository.js';

/** How a call ended: the provider's whole answer passed on, the agent gone first, or the provider failing us. */
export type ModelCallOutcome = 'answered' | 'cancelled' | 'failed';

// ignoreBOM keeps a leading BOM in the text, so that the text is the bytes exactly.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The facts of one call that the proxy learns before the provider answers. */
export interface CallStart {
  accountId: string;
  agentKeyId: string;
  method: string;
  path: string;
  upstreamUrl: string;
  /** The request's body as received: its text (checked UTF-8 already) and its bytes. */
  requestText: string;
  requestBytes: Buffer;
}

/**
 * One call while it runs: what the agent sent, and the provider's answer as it comes (its status, each chunk of its
 * body and when the first came, and what it says about itself). `record` turns it into the row that is committed.
 */
export class ModelCallDraft {
  readonly id: string;
  readonly startedAt = new Date();
  readonly requestedModel: string | null;
  httpStatus: number | null = null;
  firstByteAt: Date | null = null;
  private readonly chunks: Buffer[] = [];
  private bytes = 0;

  constructor(
    private readonly start: CallStart,
    /** The most answer bytes the draft holds; received() throws AnswerTooLarge past it. */
    readonly answerLimit: number,
    /** Where the answer's model, id and usage are read into (a stream's relay reads them event by event). */
    public facts = new AnswerFacts(),
  ) {
    this.id = uuidv7(this.startedAt.getTime());
    this.requestedModel = requestedModel(start.requestText);
  }

  /** A chunk of the provider's answer body, as it came. */
  received(chunk: Buffer): void {
    this.firstByteAt ??= new Date();
    this.bytes += chunk.length;
    if (this.bytes > this.answerLimit) throw new AnswerTooLarge(this.answerLimit);
    this.chunks.push(chunk);
  }

  /** The answer's bytes so far. */
  answer(): Buffer {
    return Buffer.concat(this.chunks);
  }

  record(outcome: ModelCallOutcome, error: string | null = null): NewModelCall {
    const answer = this.answer();
    const text = utf8Text(answer);
    const { promptTokens, completionTokens, totalTokens } = this.facts.usage;
    return {
      source: 'proxy',
      ...NO_SPAN,
      id: this.id,
      accountId: this.start.accountId,
      agentKeyId: this.start.agentKeyId,
      method: this.start.method,
      path: this.start.path,
      upstreamUrl: this.start.upstreamUrl,
      requestedModel: this.requestedModel,
      answeredModel: this.facts.answeredModel,
      responseId: this.facts.responseId,
      httpStatus: this.httpStatus,
      outcome,
      error,
      promptTokens,
      completionTokens,
      totalTokens,
      startedAt: this.startedAt.toISOString(),
      firstByteAt: this.firstByteAt?.toISOString() ?? null,
      finishedAt: new Date().toISOString(),
      requestSha256: sha256(this.start.requestBytes),
      responseSha256: sha256(answer),
      requestBody: this.start.requestText,
      // Text PostgreSQL can store is kept as text; anything else (audio, a broken encoding) as base64 of the bytes.
      ...(text === undefined ? { responseBody: answer.toString('base64'), responseEncoding: 'base64' } : { responseBody: text, responseEncoding: 'utf8' }),
    };
  }
}

/** What received() throws when the answer outgrows the limit: the record keeps what came before. */
export class AnswerTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the model provider's answer is longer than LLM_ANSWER_LIMIT_BYTES (${limit} bytes)`);
  }
}

/** `model` of a JSON request, when it names one. */
function requestedModel(text: string): string | null {
  if (!text.includes('"model"')) return null;
  try {
    const model = (JSON.parse(text) as { model?: unknown } | null)?.model;
    return typeof model === 'string' ? model : null;
  } catch {
    return null;
  }
}

/** The bytes as text, when they are UTF-8 without U+0000 (which PostgreSQL's text cannot hold). */
export function utf8Text(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
