import { UnauthorizedException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { AccountsRepository } from './accounts.repository.js';
import { bearerToken } from './bearer-token.js';

/** Bodies up to this size are parsed before the guard looks at the key, as every request's are: it costs little. */
const CHEAP_BODY_BYTES = 65_536;

/**
 * Refuses a large body sent to the agent API (`/v1/`, the model-call proxy under `/llm/`, OTLP under `/otlp/`) with no key or an unknown
 * one before reading it. Nest's guards run after the body is parsed, and a 1 MB body cost 0.18 s of CPU before its
 * 401: a dozen at once without any key held every other request for two seconds. Small bodies keep the ordinary path
 * (AgentAuthGuard), which checks again. Routes are selected by prefix: test/api-docs holds every documented /v1/
 * operation, and only those, to agent keys (the proxy passes OpenAI's API through and is not in the document).
 */
export function refuseUnknownAgentsBeforeLargeBodies(fastify: FastifyInstance, accounts: AccountsRepository): void {
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (!request.url.startsWith('/v1/') && !request.url.startsWith('/llm/') && !request.url.startsWith('/otlp/')) return payload;
    const length = request.headers['content-length'];
    const large = length === undefined ? request.headers['transfer-encoding'] !== undefined : Number(length) > CHEAP_BODY_BYTES;
    if (!large) return payload;
    const key = bearerToken(request.headers.authorization);
    if (!key) throw new UnauthorizedException('Authorization header must be "Bearer <agent key>"');
    if (!(await accounts.findActiveKey(key))) throw new UnauthorizedException('unknown or revoked agent key');
    return payload;
  });
}
