import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AgentScope } from '#libs/config';
import { AccountsRepository, type AgentIdentity } from './accounts.repository.js';
import { rateLimited, type ReplyHeaders } from './agent-quota.js';
import { AgentRateLimiter } from './agent-rate-limiter.js';
import { bearerToken } from './bearer-token.js';

/** The agent a request was authenticated as; set by AgentAuthGuard. */
export interface AgentRequest {
  headers: Record<string, string | string[] | undefined>;
  agent?: AgentIdentity;
}

const REQUIRED_SCOPE = 'agent:required-scope';

/** The 403 message for a key without any of `scopes`. */
export const lacksScope = (scopes: readonly AgentScope[]): string => `this agent key lacks the scope ${scopes.join(' or ')}`;

/** The scope an agent key needs for a handler (or every handler of a controller); of several, any one will do. */
export const RequireScope = (...scopes: [AgentScope, ...AgentScope[]]) => SetMetadata(REQUIRED_SCOPE, scopes);

/**
 * Accepts `Authorization: Bearer <agent key>` for a key that exists and is not revoked (401 otherwise), and that
 * carries a scope the handler accepts (403 otherwise, naming the scope), within the key's rate limit, where the
 * request counts one (429 with Retry-After otherwise; a batch counts its other logs itself: AgentQuota).
 */
@Injectable()
export class AgentAuthGuard implements CanActivate {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly reflector: Reflector,
    private readonly rateLimiter: AgentRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AgentRequest>();
    const key = bearerToken(request.headers.authorization);
    if (!key) throw new UnauthorizedException('Authorization header must be "Bearer <agent key>"');
    const agent = await this.accounts.findActiveKey(key);
    if (!agent) throw new UnauthorizedException('unknown or revoked agent key');
    const scopes = this.reflector.getAllAndOverride<AgentScope[] | undefined>(REQUIRED_SCOPE, [context.getHandler(), context.getClass()]);
    if (scopes && !scopes.some((scope) => agent.scopes.includes(scope))) {
      throw new ForbiddenException(lacksScope(scopes));
    }
    const waitMs = await this.rateLimiter.take(agent.agentKeyId, agent.rateLimitPerMin);
    if (waitMs !== undefined) throw rateLimited(context.switchToHttp().getResponse<ReplyHeaders>(), waitMs, 'this agent key made too many requests');
    request.agent = agent;
    return true;
  }
}
