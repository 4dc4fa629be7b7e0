import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringifyJson } from '#libs/common';
import { FAILURE_CODES, SimFailure } from '../errors.js';
import { answeredCode, apiVersionOf, errorBody } from '../http/envelope.js';
import { JSON_CONTENT_TYPE } from '../http/json-response.interceptor.js';
import type { Clock } from '../sim-clock.js';
import type { SimState } from '../state/sim-state.js';
import type { FaultDecision } from './fault-switchboard.js';

/** Cloudflare-style page, the shape WEEX's edge sends a non-allowlisted IP. */
const IP_NOT_ALLOWED_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>api-contract.weex.com | 521: Web server is down</title></head>
<body><h1>Web server is down</h1><p>Error code 521</p><p>Simulated by the WEEX exchange simulator.</p></body>
</html>
`;

/**
 * Answers from a Fastify hook, before Nest sees the request, in the envelope of the path's API version, and counts
 * the rejection like the exception filter does.
 */
export function sendEdgeError(
  req: FastifyRequest,
  reply: FastifyReply,
  failure: SimFailure,
  message: string,
  deps: { state: SimState; clock: Clock },
): FastifyReply {
  const version = apiVersionOf(req.url);
  const codes = FAILURE_CODES[failure];
  deps.state.recordRejection(answeredCode(version, codes));
  const body = stringifyJson(errorBody(version, codes, message, deps.clock()));
  return reply.code(codes.http).header('content-type', JSON_CONTENT_TYPE).send(body);
}

/** The answer to a request a fault stops at the edge. */
export function edgeAnswer(
  decision: Pick<FaultDecision, 'answer' | 'body' | 'refusal'>,
  req: FastifyRequest,
  reply: FastifyReply,
  deps: { state: SimState; clock: Clock },
): FastifyReply {
  const kind = decision.answer;
  if (kind === 'answeredWithoutCode') {
    const body = decision.body ?? '';
    return reply
      .code(200)
      .header('content-type', isJson(body) ? JSON_CONTENT_TYPE : 'text/html; charset=UTF-8')
      .send(body);
  }
  if (kind === 'refused') return sendEdgeError(req, reply, decision.refusal!.failure, decision.refusal!.message, deps);
  if (kind === 'rateLimited429') return sendEdgeError(req, reply, SimFailure.RateLimited, 'Too many requests', deps);
  if (kind === 'error500') return sendEdgeError(req, reply, SimFailure.SystemError, 'system error', deps);
  // HTML, not JSON: what a client gets when its IP is not on the key's allowlist.
  const status = FAILURE_CODES[SimFailure.IpNotAllowed].http;
  return reply.code(status).header('content-type', 'text/html; charset=UTF-8').send(IP_NOT_ALLOWED_PAGE);
}

/** A JSON body goes out as JSON, anything else as the HTML page a proxy would send. */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
