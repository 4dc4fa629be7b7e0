import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  HttpException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AgentScope } from '#libs/config';
import { AccountsRepository, type AgentIdentity } from './accounts.repository.js';
import { AgentRateLimiter } from './agent-rate-limiter.js';
import { bearerToken } from './bearer-token.js';

/** The agent a request was authenticated as; set by AgentAuthGuard. */
export interface AgentRequest {
  headers: Record<string, string | string[] | undefined>;
  agent?: AgentIdentity;
}

const REQUIRED_SCOPE = 'agent:required-scope';

/** The scope an agent key needs for a handler (or every handler of a controller). */
export const RequireScope = (scope: AgentScope) => SetMetadata(REQUIRED_SCOPE, scope);

/**
 * Accepts `Authorization: Bearer <agent key>` for a key that exists and is not revoked (401 otherwise), and that
 * carries the scope the handler requires (403 otherwise, naming the scope), within the key's rate limit (429 with
 * Retry-After otherwise).
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
    const scope = this.reflector.getAllAndOverride<AgentScope | undefined>(REQUIRED_SCOPE, [context.getHandler(), context.getClass()]);
    if (scope && !agent.scopes.includes(scope)) throw new ForbiddenException(`this agent key lacks the scope ${scope}`);
    const waitMs = await this.rateLimiter.take(agent.agentKeyId, agent.rateLimitPerMin);
    if (waitMs !== undefined) {
      const seconds = Math.ceil(waitMs / 1000);
      context.switchToHttp().getResponse<{ header(name: string, value: string): unknown }>().header('Retry-After', String(seconds));
      throw new HttpException({ code: 'RATE_LIMITED', message: `this agent key made too many requests; retry in ${seconds} s` }, 429);
    }
    request.agent = agent;
    return true;
  }
}
