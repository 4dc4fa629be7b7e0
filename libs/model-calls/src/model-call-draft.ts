import { createHash } from 'node:crypto';
import { uuidv7 } from '#libs/common';
import { AnswerFacts } from './answer-facts.js';
import { NO_SPAN } from './model-call-chain.js';
import type { NewModelCall } from './model-calls.repository.js';
import { ProviderKeyMask } from './provider-key-mask.js';

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
 * body and when the first came, and what it says about itself). What is recorded is what the agent gets: the bytes
 * the proxy passes on (`passes`), the account's provider key masked (ProviderKeyMask), an error event it ends a stream
 * with included, and nothing it held back. `record` turns them into the row that is committed.
 */
export class ModelCallDraft {
  readonly id: string;
  readonly startedAt = new Date();
  readonly requestedModel: string | null;
  httpStatus: number | null = null;
  firstByteAt: Date | null = null;
  /** Where the answer's model, id and usage are read into: from a whole answer's text at record(), or by a stream's relay. */
  facts = new AnswerFacts();
  private streamed = false;
  private chunks: Buffer[] = [];
  /** The provider's answer bytes read so far (masked), held against answerLimit. */
  private bytes = 0;
  // Hashed as it is passed on, so that recording needs no second pass over (or copy of) the answer.
  private readonly answerHash = createHash('sha256');
  private readonly mask: ProviderKeyMask;

  constructor(
    private readonly start: CallStart,
    /** The most answer bytes read from the provider; received() throws AnswerTooLarge past them. */
    readonly answerLimit: number,
    /** The account's key at the provider, masked wherever the answer holds it. */
    providerKey: string | undefined,
  ) {
    this.id = uuidv7(this.startedAt.getTime());
    this.requestedModel = requestedModel(start.requestText);
    this.mask = new ProviderKeyMask(providerKey);
  }

  /** A stream's facts, read event by event by its relay rather than from the whole text. */
  readsStream(facts: AnswerFacts): void {
    this.facts = facts;
    this.streamed = true;
  }

  /**
   * A chunk of the provider's answer body, as it came. Returns the bytes that may be passed on now: the key masked,
   * and a chunk's end that may begin the key held back until the next chunk or ended(). Recorded once passes() has them.
   */
  received(chunk: Buffer): Buffer {
    this.firstByteAt ??= new Date();
    return this.counted(this.mask.push(chunk));
  }

  /** The answer has ended: the bytes held back, that may be passed on now (possibly none). */
  ended(): Buffer {
    return this.counted(this.mask.end());
  }

  /**
   * Bytes the agent gets, in order: kept and hashed for the record, and returned to be sent. Bytes read but never
   * passed on (an event the provider broke off, an answer the gateway answered with an error instead) are not recorded.
   */
  passes(bytes: Buffer): Buffer {
    if (bytes.length > 0) {
      this.chunks.push(bytes);
      this.answerHash.update(bytes);
    }
    return bytes;
  }

  /** A header's value as the agent may see it. */
  masked(value: string): string {
    return this.mask.text(value);
  }

  /** Builds the row once: the answer's chunks are let go, so that the row's body is the answer's one copy. */
  record(outcome: ModelCallOutcome, error: string | null = null): NewModelCall {
    const answer = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = [];
    const text = utf8Text(answer);
    if (outcome === 'answered' && !this.streamed && text !== undefined) this.facts.readText(text);
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
      responseSha256: this.answerHash.digest('hex'),
      requestBody: this.start.requestText,
      // Text PostgreSQL can store is kept as text; anything else (audio, a broken encoding) as base64 of the bytes.
      ...(text === undefined ? { responseBody: answer.toString('base64'), responseEncoding: 'base64' } : { responseBody: text, responseEncoding: 'utf8' }),
    };
  }

  private counted(bytes: Buffer): Buffer {
    this.bytes += bytes.length;
    if (this.bytes > this.answerLimit) throw new AnswerTooLarge(this.answerLimit);
    return bytes;
  }
}

/** The answer's bytes as recorded (and as the agent gets them), made again from the record's body. */
export const answerBytes = (call: NewModelCall): Buffer => Buffer.from(call.responseBody, call.responseEncoding === 'base64' ? 'base64' : 'utf8');

/** What received() throws when the answer outgrows the limit: the record keeps what was passed on before. */
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
