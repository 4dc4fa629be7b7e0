import { Module } from '@nestjs/common';
import { WeexModule } from '#libs/weex-nest';
import { AccountAdminService } from './account-admin.service.js';
import { AccountClientsLoader } from './account-clients.loader.js';
import { AccountPausesRepository } from './account-pauses.repository.js';
import { AccountSecrets } from './account-secrets.js';
import { AccountsRepository } from './accounts.repository.js';
import { AdminAuthGuard } from './admin-auth.guard.js';
import { AdminAuthThrottle } from './admin-auth-throttle.js';
import { AdminTokenService } from './admin-token.service.js';
import { AgentAccessService } from './agent-access.service.js';
import { AgentAuthGuard } from './agent-auth.guard.js';
import { AgentQuota } from './agent-quota.js';
import { AgentRateLimiter } from './agent-rate-limiter.js';
import { ConsoleSessionService } from './console-session.service.js';
import { ConsoleSessionsRepository } from './console-sessions.repository.js';
import { JudgeKeysService } from './judge-keys.service.js';
import { LlmUpstreamService } from './llm-upstream.service.js';

/** Accounts, their exchange clients, agent keys and the admin token. Both the API and the worker import it. */
@Module({
  imports: [WeexModule],
  providers: [
    AccountsRepository,
    AccountPausesRepository,
    AgentAccessService,
    AgentAuthGuard,
    AgentRateLimiter,
    AgentQuota,
    AdminTokenService,
    AdminAuthThrottle,
    AdminAuthGuard,
    AccountSecrets,
    AccountClientsLoader,
    AccountAdminService,
    ConsoleSessionsRepository,
    ConsoleSessionService,
    JudgeKeysService,
    LlmUpstreamService,
  ],
  exports: [
    AccountsRepository,
    AccountPausesRepository,
    AgentAccessService,
    AgentAuthGuard,
    AgentRateLimiter,
    AgentQuota,
    AdminTokenService,
    AdminAuthThrottle,
    AdminAuthGuard,
    AccountAdminService,
    ConsoleSessionService,
    JudgeKeysService,
    LlmUpstreamService,
  ],
})
export class AccountsModule {}
