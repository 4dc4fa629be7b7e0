import { Module } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository.js';
import { AgentAccessService } from './agent-access.service.js';
import { AdminAuthGuard } from './admin-auth.guard.js';
import { AdminTokenService } from './admin-token.service.js';
import { AgentAuthGuard } from './agent-auth.guard.js';

@Module({
  providers: [AccountsRepository, AgentAccessService, AgentAuthGuard, AdminTokenService, AdminAuthGuard],
  exports: [AccountsRepository, AgentAccessService, AgentAuthGuard, AdminTokenService, AdminAuthGuard],
})
export class AccountsModule {}
