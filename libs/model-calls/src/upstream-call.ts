import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { LlmUpstream } from '#libs/accounts';
import { decodedBody, headerText } from './upstream-body.js';

/** Why a call to the provider stopped before its answer ended (`too_large`: the gateway stopped reading it). */
export type StopReason = 'cancelled' | 'timeout' | 'unreachable' | 'broken' | 'too_large';

let undici: Promise<typeof import('undici')> | undefined;
/** undici, loaded with the first model call (at start it held about 4 MB of heap in each process at rest); a failed load is tried again. */
export const loadUndici = () =>
  (undici ??= import('undici').catch((error: unknown) => {
    undici = undefined;
    throw error;
  }));

/** Marks a call the gateway makes: a provider URL that leads back to a gateway is refused there (508), not followed. */
export const GATEWAY_HOP = 'x-weex-gateway-hop';

/** The request headers an agent's client sends that mean something to the provider; every other one stays here. */
const FORWARDED_REQUEST = ['content-type', 'accept', 'openai-beta'];
/** The provider's answer headers the agent gets: what an OpenAI client reads (its rate limits, Retry-After). */
const FORWARDED_ANSWER = /^(content-type|retry-after|retry-after-ms|cache-control|x-ratelimit-[a-z-]+|openai-processing-ms|openai-version)$/;

export interface UpstreamCall {
  /** The provider's status and headers (names in lower case). */
  status: number;
  headers: IncomingHttpHeaders;
  /** The answer's body, read by the caller: Buffers, decoded as fetch would if the provider compressed it anyway. */
  body: Readable;
  /** Aborts when the agent goes away or the call's time is up; stops the body's reading too. */
  signal: AbortSignal;
  /** Why the call stopped, for an error thrown while it ran (the request itself, or reading the body). */
  whyStopped(error: unknown): StopReason;
}

/**
 * Sends the agent's request to the provider with the account's key (never the agent's): the same method, the path
 * below the base URL, the body's bytes as they came. `agentGone` (the request's close) and the time limit abort it,
 * which closes the connection to the provider, so that the provider stops generating too. Throws what undici throws;
 * `whyStopped` tells the caller which.
 *
 * undici's `request` on the caller's kept-alive dispatcher rather than the global `fetch`: fetch's WHATWG Request,
 * Response and streams were about 1 ms of a lone call's p50 on a 2-core machine (bench: llm).
 */
export async function callUpstream(
  dispatcher: Dispatcher,
  upstream: LlmUpstream,
  request: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: Buffer },
  agentGone: AbortSignal,
  timeoutMs: number,
): Promise<UpstreamCall> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([agentGone, deadline]);
  const whyStopped = (error: unknown): StopReason => {
    if (agentGone.aborted) return 'cancelled';
    if (deadline.aborted || undiciTimeout(error)) return 'timeout';
    return 'broken';
  };
  const headers: Record<string, string> = { 'accept-encoding': 'identity', 'user-agent': 'weex-ai-log-gateway', [GATEWAY_HOP]: '1' };
  for (const name of FORWARDED_REQUEST) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (upstream.apiKey) headers.authorization = `Bearer ${upstream.apiKey}`;
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body.length > 0;
  try {
    // A redirect is passed on as it came (undici's request follows none), as fetch did with `redirect: 'manual'`.
    const { request: send } = await loadUndici();
    const answer = await send(`${upstream.baseUrl}${request.path}`, {
      dispatcher,
      method: request.method as Dispatcher.HttpMethod,
      headers,
      body: hasBody ? request.body : undefined,
      signal,
    });
    return { status: answer.statusCode, headers: answer.headers, body: decodedBody(request.method, answer), signal, whyStopped };
  } catch (error) {
    const reason = whyStopped(error);
    // Not `instanceof Error`: undici's errors may come from another realm (a test's VM context).
    const thrown = typeof error === 'object' && error !== null ? error : new Error(String(error));
    throw Object.assign(thrown, { stopReason: reason === 'broken' ? 'unreachable' : reason });
  }
}

/** The reason callUpstream attached to what it threw. */
export const stopReasonOf = (error: unknown): StopReason | undefined => (error as { stopReason?: StopReason } | undefined)?.stopReason;

/** The provider's headers an agent's client reads; the provider's own request id under a name of its own. */
export function answerHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && FORWARDED_ANSWER.test(name)) forwarded[name] = headerText(value);
  }
  const requestId = headers['x-request-id'];
  if (requestId) forwarded['x-upstream-request-id'] = headerText(requestId);
  return forwarded;
}

/** undici gives up on its own after 300 s without headers or body bytes. */
function undiciTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}
