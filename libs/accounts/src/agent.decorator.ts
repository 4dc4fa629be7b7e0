import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AgentIdentity } from './accounts.repository.js';
import type { AgentRequest } from './agent-auth.guard.js';

/**
 * The agent the request was authenticated as (`@Agent() agent: AgentIdentity`), for handlers behind AgentAuthGuard.
 * A handler without the guard has no agent: that is a wiring mistake, and fails loudly rather than reading undefined.
 */
export const Agent = createParamDecorator((_data: unknown, context: ExecutionContext): AgentIdentity => {
  const { agent } = context.switchToHttp().getRequest<AgentRequest>();
  if (!agent) throw new Error('@Agent() used on a route without AgentAuthGuard');
  return agent;
});
