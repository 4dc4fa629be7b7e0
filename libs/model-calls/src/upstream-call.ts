import type { LlmUpstream } from '#libs/accounts';

/** Why a call to the provider stopped before its answer ended (`too_large`: the gateway stopped reading it). */
export type StopReason = 'cancelled' | 'timeout' | 'unreachable' | 'broken' | 'too_large';

/** Marks a call the gateway makes: a provider URL that leads back to a gateway is refused there (508), not followed. */
export const GATEWAY_HOP = 'x-weex-gateway-hop';

/** The request headers an agent's client sends that mean something to the provider; every other one stays here. */
const FORWARDED_REQUEST = ['content-type', 'accept', 'openai-beta'];
/** The provider's answer headers the agent gets: what an OpenAI client reads (its rate limits, Retry-After). */
const FORWARDED_ANSWER = /^(content-type|retry-after|retry-after-ms|cache-control|x-ratelimit-[a-z-]+|openai-processing-ms|openai-version)$/;

export interface UpstreamCall {
  /** The provider's answer, its headers in: its body is read by the caller. */
  response: Response;
  /** Aborts when the agent goes away or the call's time is up; stops the body's reading too. */
  signal: AbortSignal;
  /** Why the call stopped, for an error thrown while it ran (the fetch itself, or reading the body). */
  whyStopped(error: unknown): StopReason;
}

/**
 * Sends the agent's request to the provider with the account's key (never the agent's): the same method, the path
 * below the base URL, the body's bytes as they came. `agentGone` (the request's close) and the time limit abort it,
 * which closes the connection to the provider, so that the provider stops generating too. Throws what fetch throws;
 * `whyStopped` tells the caller which.
 */
export async function callUpstream(
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
    const response = await fetch(`${upstream.baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
      redirect: 'manual',
      signal,
    });
    return { response, signal, whyStopped };
  } catch (error) {
    const reason = whyStopped(error);
    // Not `instanceof Error`: fetch's errors may come from another realm (a test's VM context).
    const thrown = typeof error === 'object' && error !== null ? error : new Error(String(error));
    throw Object.assign(thrown, { stopReason: reason === 'broken' ? 'unreachable' : reason });
  }
}

/** The reason callUpstream attached to what it threw. */
export const stopReasonOf = (error: unknown): StopReason | undefined => (error as { stopReason?: StopReason } | undefined)?.stopReason;

/** The provider's headers an agent's client reads; the provider's own request id under a name of its own. */
export function answerHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (FORWARDED_ANSWER.test(name)) headers[name] = value;
  });
  const requestId = response.headers.get('x-request-id');
  if (requestId) headers['x-upstream-request-id'] = requestId;
  return headers;
}

/** Node's fetch (undici) gives up on its own after 300 s without headers or body bytes. */
function undiciTimeout(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}
