import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { HttpException, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Dispatcher } from 'undici';
import { type AgentIdentity, bearerToken } from '#libs/accounts';
import { isStorableText } from '#libs/common';
import { GatewayConfig } from '#libs/config';
import { ValidationFailedException } from '#libs/validation';
import { LlmGatewayException } from './llm-gateway.exception.js';
import { LlmUpstreams } from './llm-upstreams.js';
import { AnswerTooLarge, answerBytes, ModelCallDraft, utf8Text } from './model-call-draft.js';
import { ModelCallsRepository, type NewModelCall } from './model-calls.repository.js';
import { SseRelay } from './sse-relay.js';
import { headerText } from './upstream-body.js';
import { answerHeaders, callUpstream, loadUndici, type StopReason, stopReasonOf, type UpstreamCall } from './upstream-call.js';

/** Where the proxy is mounted: an OpenAI client's `base_url` is the gateway's URL followed by this. */
export const LLM_PROXY_PREFIX = '/llm/openai/v1';

/** A request to the proxy: the path below LLM_PROXY_PREFIX (with its query), and the body's bytes as they came. */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Passes an agent's model call to its account's provider and the provider's answer back as it came (status, body,
 * content type; a stream event by event) but for the provider key, masked wherever the provider echoes it, and
 * records the call in `model_calls` before the answer is complete: a whole answer is sent once the row has committed,
 * and a stream's last event (`[DONE]`, `response.completed`) is held back until it has. A stream whose row cannot be
 * committed ends with an error event instead. The gateway's own failures (no provider, provider unreachable or too
 * slow) are ErrorBody answers with a code; the provider's errors are its own answers, passed on.
 */
@Injectable()
export class LlmProxyService implements OnApplicationShutdown {
  private readonly logger = new Logger(LlmProxyService.name);
  /** Kept-alive connections to the providers, a pool per origin, as the global fetch's dispatcher had; made with the first call. */
  private dispatcher?: Promise<Dispatcher>;

  constructor(
    private readonly config: GatewayConfig,
    private readonly upstreams: LlmUpstreams,
    private readonly calls: ModelCallsRepository,
  ) {}

  async forward(request: ProxiedRequest, agent: AgentIdentity, reply: FastifyReply, agentGone: AbortSignal): Promise<void> {
    if (!FORWARDED_METHODS.includes(request.method)) {
      reply.header('allow', FORWARDED_METHODS.join(', '));
      throw new HttpException({ code: 'METHOD_NOT_ALLOWED', message: `the proxy forwards ${FORWARDED_METHODS.join(', ')}, not ${request.method}` }, 405);
    }
    const key = bearerToken(request.headers.authorization);
    if (key !== undefined && decodedUrl(request.path).includes(key)) {
      const message = 'the URL holds the agent key: send it only in the Authorization header (the URL goes to the provider and into the record)';
      throw new ValidationFailedException([{ path: 'path', message }]);
    }
    const climbing = climbingSegment(request.path);
    if (climbing !== undefined) {
      throw new ValidationFailedException([{ path: 'path', message: `the path below ${LLM_PROXY_PREFIX} must not leave it: segment "${climbing}"` }]);
    }
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && !/^\s*(identity)?\s*$/i.test(String(encoding))) {
      throw new HttpException(
        {
          code: 'UNSUPPORTED_CONTENT_ENCODING',
          message: `Content-Encoding must be left out, not ${JSON.stringify(encoding)}: the gateway records the request as sent`,
        },
        415,
      );
    }
    const requestText = utf8Text(request.body);
    if (requestText === undefined) throw new ValidationFailedException([{ path: 'body', message: 'body must be UTF-8 text without U+0000' }]);
    const upstream = await this.upstreams.resolve(agent.accountId);
    const draft = new ModelCallDraft(
      {
        accountId: agent.accountId,
        agentKeyId: agent.agentKeyId,
        method: request.method,
        path: request.path,
        upstreamUrl: publicUrl(upstream.baseUrl),
        requestText,
        requestBytes: request.body,
      },
      this.config.llmAnswerLimitBytes,
      upstream.apiKey,
    );
    if (draft.requestedModel !== null && !isStorableText(draft.requestedModel)) {
      throw new ValidationFailedException([{ path: 'model', message: 'model must be text without U+0000 or a lone surrogate (escaped or not)' }]);
    }
    let call: UpstreamCall;
    try {
      call = await callUpstream(await this.providers(), upstream, request, agentGone, this.config.llmUpstreamTimeoutMs);
    } catch (error) {
      return this.stopped(draft, stopReasonOf(error) ?? 'unreachable', error);
    }
    draft.httpStatus = call.status;
    // The record's id, for the AI log that names the call (modelCallIds) without a lookup.
    const forwarded = Object.entries(answerHeaders(call.headers)).map(([name, value]) => [name, draft.masked(value)] as const);
    const headers: Record<string, string> = { ...Object.fromEntries(forwarded), 'x-model-call-id': draft.id };
    const contentType = call.headers['content-type'];
    const stream = contentType !== undefined && headerText(contentType).toLowerCase().startsWith('text/event-stream');
    return stream ? this.relayStream(draft, call, headers, reply) : this.relayWhole(draft, call, headers, reply);
  }

  /** An answer read whole, recorded, then sent. */
  private async relayWhole(draft: ModelCallDraft, call: UpstreamCall, headers: Record<string, string>, reply: FastifyReply): Promise<void> {
    const answer: Buffer[] = [];
    try {
      for await (const chunk of call.body as AsyncIterable<Buffer>) answer.push(draft.received(chunk));
      answer.push(draft.ended());
    } catch (error) {
      // The agent gets the gateway's error instead of these bytes, so the record holds none of them.
      return this.stopped(draft, whyStopped(call, error), error);
    }
    // Emptied into the draft: only the record's body is held while it commits; the bytes to send are made from it.
    for (const bytes of answer.splice(0)) draft.passes(bytes);
    const record = draft.record('answered');
    await this.calls.append(record);
    void reply.status(call.status).headers(headers).send(answerBytes(record));
  }

  /**
   * A stream passed on event by event; its end waits for the record. The record is every byte written to the agent:
   * the events passed on, then the held end or the error event that replaces it (an unfinished event is dropped).
   */
  private async relayStream(draft: ModelCallDraft, call: UpstreamCall, headers: Record<string, string>, reply: FastifyReply): Promise<void> {
    const relay = new SseRelay();
    draft.readsStream(relay.facts);
    const out = new PassThrough();
    out.on('error', () => {}); // Fastify destroys it when the agent goes away, which the signal reports
    void reply.status(call.status).headers(headers).send(out);
    // False when the agent's socket wants a drain first. Nothing is written (or recorded) once it is gone.
    const pass = (bytes: Buffer): boolean => bytes.length === 0 || out.destroyed || out.write(draft.passes(bytes));
    let stop: StopReason | undefined;
    try {
      for await (const chunk of call.body as AsyncIterable<Buffer>) {
        if (!pass(relay.push(draft.received(chunk)))) await once(out, 'drain', { signal: call.signal });
      }
      pass(relay.push(draft.ended()));
    } catch (error) {
      stop = whyStopped(call, error);
    }
    // An agent gone after the provider's last byte did not get the end either: cancelled, too.
    if (stop === 'cancelled' || out.destroyed) return void (await this.recordCancelled(draft));
    const failure = stop && failureOf(stop, draft);
    // Recorded before it is sent: [DONE] (or the error event) reaches the agent only once the record has committed.
    const end = draft.passes(failure ? Buffer.from(errorEvent(failure.code, failure.message)) : relay.finish());
    const recorded = await this.calls.append(draft.record(failure ? 'failed' : 'answered', failure?.message ?? null)).then(
      () => true,
      (error: unknown) => {
        this.logger.error(`model call ${draft.id} could not be recorded; its stream ends with an error`, error instanceof Error ? error.stack : String(error));
        return false;
      },
    );
    out.end(recorded ? end : errorEvent('MODEL_CALL_NOT_RECORDED', 'the gateway could not record this call, so it does not pass on its end: try again'));
  }

  /** Records a call that stopped before its answer was passed on, and answers the gateway's error (none to an agent gone). */
  private async stopped(draft: ModelCallDraft, reason: StopReason, error: unknown): Promise<void> {
    if (reason === 'cancelled') return this.recordCancelled(draft);
    const failure = failureOf(reason, draft, error);
    await this.calls.append(draft.record('failed', failure.message));
    throw new LlmGatewayException(failure.code, failure.message);
  }

  /** The kept-alive dispatcher, made with the first call; a failed making is tried again with the next. */
  private providers(): Promise<Dispatcher> {
    this.dispatcher ??= loadUndici().then(({ Agent }) => new Agent());
    return this.dispatcher.catch((error: unknown) => {
      this.dispatcher = undefined;
      throw error;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await (await this.dispatcher?.catch(() => undefined))?.close();
  }

  private async recordCancelled(draft: ModelCallDraft): Promise<void> {
    await this.append(draft.record('cancelled'));
  }

  /** Nobody waits for this record's answer: a failure is logged, not thrown. */
  private async append(call: NewModelCall): Promise<void> {
    await this.calls.append(call).catch((error: unknown) => {
      this.logger.error(`model call ${call.id} (${call.outcome}) could not be recorded`, error instanceof Error ? error.stack : String(error));
    });
  }
}

function failureOf(
  reason: Exclude<StopReason, 'cancelled'>,
  draft: ModelCallDraft,
  error?: unknown,
): { code: 'LLM_UPSTREAM_TIMEOUT' | 'LLM_UPSTREAM_UNREACHABLE' | 'LLM_ANSWER_TOO_LARGE'; message: string } {
  if (reason === 'too_large') return { code: 'LLM_ANSWER_TOO_LARGE', message: new AnswerTooLarge(draft.answerLimit).message };
  if (reason === 'timeout') return { code: 'LLM_UPSTREAM_TIMEOUT', message: 'the model provider did not answer within LLM_UPSTREAM_TIMEOUT_MS' };
  if (reason === 'broken' && draft.httpStatus !== null) return { code: 'LLM_UPSTREAM_UNREACHABLE', message: 'the model provider broke off its answer' };
  // undici's request throws the error itself (ECONNREFUSED, ENOTFOUND), where fetch threw it as its cause.
  const thrown = error as { code?: unknown; message?: unknown } | undefined;
  const why = typeof thrown?.code === 'string' ? thrown.code : typeof thrown?.message === 'string' ? thrown.message : 'no connection';
  return { code: 'LLM_UPSTREAM_UNREACHABLE', message: `the model provider could not be reached (${why})` };
}

/** Why reading the answer stopped: the gateway's own limit, or what the call tells. */
const whyStopped = (call: UpstreamCall, error: unknown): StopReason => (error instanceof AnswerTooLarge ? 'too_large' : call.whyStopped(error));

/** The methods of a provider's REST API; TRACE, CONNECT or OPTIONS would go out with the account's key for nothing. */
const FORWARDED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The URL with its percent-encoding undone where it reads as UTF-8 (an agent key is ASCII either way). */
function decodedUrl(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/**
 * A segment of the path (before its query) that would climb out of the provider's base path once resolved: `.`, `..`,
 * or one that decodes to either or to a slash. Undefined when there is none.
 */
function climbingSegment(path: string): string | undefined {
  for (const segment of path.split('?')[0].split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return segment;
    }
    if (decoded === '.' || decoded === '..' || /[/\\]/.test(decoded)) return segment;
  }
  return undefined;
}

/** The base URL without what may carry a secret (userinfo, query): what a record names as the provider. */
function publicUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.username = url.password = url.search = '';
  return url.toString().replace(/\/$/, '');
}

/** An SSE event an OpenAI client raises as an error: a top-level `error` object, as providers send mid-stream. */
function errorEvent(code: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', code, message, error: { type: 'gateway_error', code, message } })}\n\n`;
}
