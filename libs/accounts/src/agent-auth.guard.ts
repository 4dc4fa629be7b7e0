import {
  BadRequestException,
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AgentScope } from '#libs/config';
import { AccountsRepository, type AgentIdentity } from './accounts.repository.js';
import { rateLimited, type ReplyHeaders } from './agent-quota.js';
import { AgentRateLimiter } from './agent-rate-limiter.js';
import { bearerToken } from './bearer-token.js';
import { isConsoleAction } from './console-action.js';
import { ConsoleSessionService } from './console-session.service.js';

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

/** What an admin's console session may do on an account's routes: read, never write or cancel. */
const ADMIN_CONSOLE_SCOPES: readonly AgentScope[] = ['exchange:read', 'audit:read'];
/** The header an admin's console session names the account it reads with. */
export const CONSOLE_ACCOUNT_HEADER = 'x-account-id';

/**
 * Accepts `Authorization: Bearer <agent key>` for a key that exists and is neither revoked nor expired (401
 * otherwise), and that carries a scope the handler accepts (403 otherwise, naming the scope), within the key's rate
 * limit, where the request counts one (429 with Retry-After otherwise; a batch counts its other logs itself:
 * AgentQuota). Without an Authorization header, a console session stands for its key, for reads and ConsoleAction
 * handlers only; an admin's reads the account its X-Account-Id names.
 */
@Injectable()
export class AgentAuthGuard implements CanActivate {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly reflector: Reflector,
    private readonly rateLimiter: AgentRateLimiter,
    private readonly consoleSessions: ConsoleSessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AgentRequest & FastifyRequest>();
    const { agent, console } = await this.identify(request, isConsoleAction(this.reflector, context));
    const scopes = this.reflector.getAllAndOverride<AgentScope[] | undefined>(REQUIRED_SCOPE, [context.getHandler(), context.getClass()]);
    if (scopes && !scopes.some((scope) => agent.scopes.includes(scope))) {
      throw new ForbiddenException(lacksScope(scopes));
    }
    // A console's polling counts in a bucket of its own, so that a team watching its agent never slows the agent down.
    const bucket = console ? `console:${agent.agentKeyId}` : agent.agentKeyId;
    const waitMs = agent.agentKeyId === ADMIN_CONSOLE ? undefined : await this.rateLimiter.take(bucket, agent.rateLimitPerMin);
    if (waitMs !== undefined) throw rateLimited(context.switchToHttp().getResponse<ReplyHeaders>(), waitMs, 'this agent key made too many requests');
    request.agent = agent;
    return true;
  }

  private async identify(request: FastifyRequest, consoleAction: boolean): Promise<{ agent: AgentIdentity; console: boolean }> {
    const session = request.headers.authorization === undefined ? await this.consoleSessions.admit(request, consoleAction) : undefined;
    if (session?.role === 'admin') return { agent: await this.adminView(request.headers[CONSOLE_ACCOUNT_HEADER]), console: true };
    if (session) return { agent: session.agent, console: true };
    const key = bearerToken(request.headers.authorization);
    if (!key) throw new UnauthorizedException('Authorization header must be "Bearer <agent key>"');
    const agent = await this.accounts.findActiveKey(key);
    if (!agent) throw new UnauthorizedException('unknown or revoked agent key');
    return { agent, console: false };
  }

  private async adminView(header: string | string[] | undefined): Promise<AgentIdentity> {
    const accountId = typeof header === 'string' && /^[\w.:-]{1,64}$/.test(header) ? header : undefined;
    if (!accountId || !(await this.accounts.findAccount(accountId))) {
      throw new BadRequestException(`an admin's console session must name an existing account in ${CONSOLE_ACCOUNT_HEADER}`);
    }
    return { agentKeyId: ADMIN_CONSOLE, accountId, scopes: ADMIN_CONSOLE_SCOPES, rateLimitPerMin: null };
  }
}

/** The agentKeyId of an admin's console session: it holds no key, and no key's rate limit applies. */
const ADMIN_CONSOLE = 'console:admin';
