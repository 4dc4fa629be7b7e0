import { Injectable, Logger } from '@nestjs/common';
import { AGENT_SCOPES, type AgentScope, GatewayConfig } from '#libs/config';
import { registerSecret } from '#libs/logging';
import { AccountsRepository } from './accounts.repository.js';
import { generateAgentKey } from './agent-key.js';
import { readOrCreateSecretFile } from '#libs/common';

export const DEFAULT_ACCOUNT_ID = 'default';

export interface AgentAccess {
  /** The key to print at start: the sandbox key made for this data directory. Never AGENT_API_KEY, which the user has. */
  sandboxKey?: string;
}

/** Makes sure the default account exists and that an agent can reach it: AGENT_API_KEY, or a sandbox key. */
@Injectable()
export class AgentAccessService {
  private readonly logger = new Logger(AgentAccessService.name);

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly config: GatewayConfig,
  ) {}

  async ensureDefaultAccess(): Promise<AgentAccess> {
    await this.accounts.ensureAccount(DEFAULT_ACCOUNT_ID, this.config.sandbox ? 'Sandbox account' : 'Default account');
    if (this.config.agentApiKey) {
      const scopes = this.config.agentApiKeyScopes.split(',').map((s) => s.trim() as AgentScope);
      await this.accounts.ensureAgentKey(DEFAULT_ACCOUNT_ID, this.config.agentApiKey, 'AGENT_API_KEY', scopes);
      return {};
    }
    if (!this.config.sandbox) {
      this.logger.warn('No AGENT_API_KEY is set: no agent can post logs to the default account.');
      return {};
    }
    const sandboxKey = readOrCreateSecretFile(this.config.dataDir, 'sandbox-agent-key', generateAgentKey);
    registerSecret(sandboxKey);
    await this.accounts.ensureAgentKey(DEFAULT_ACCOUNT_ID, sandboxKey, 'sandbox', AGENT_SCOPES);
    return { sandboxKey };
  }
}
