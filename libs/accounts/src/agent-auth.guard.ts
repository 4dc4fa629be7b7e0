import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AccountsRepository, type AgentIdentity } from './accounts.repository.js';

/** The agent a request was authenticated as; set by AgentAuthGuard. */
export interface AgentRequest {
  headers: Record<string, string | string[] | undefined>;
  agent?: AgentIdentity;
}

/** Accepts `Authorization: Bearer <agent key>` for a key that exists and is not revoked. */
@Injectable()
export class AgentAuthGuard implements CanActivate {
  constructor(private readonly accounts: AccountsRepository) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AgentRequest>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new UnauthorizedException('Authorization header must be "Bearer <agent key>"');
    const agent = await this.accounts.findActiveKey(match[1]);
    if (!agent) throw new UnauthorizedException('unknown or revoked agent key');
    request.agent = agent;
    return true;
  }
}
