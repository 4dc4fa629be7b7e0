import { Module } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository.js';
import { AgentAccessService } from './agent-access.service.js';
import { AgentAuthGuard } from './agent-auth.guard.js';

@Module({
  providers: [AccountsRepository, AgentAccessService, AgentAuthGuard],
  exports: [AccountsRepository, AgentAccessService, AgentAuthGuard],
})
export class AccountsModule {}
