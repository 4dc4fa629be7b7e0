import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AgentScope } from '#libs/config';
import { PrismaService } from '#libs/database';
import { hashAgentKey } from './agent-key.js';

export interface AgentIdentity {
  agentKeyId: string;
  accountId: string;
  scopes: readonly AgentScope[];
  /** Null: the deployment's AGENT_RATE_LIMIT_PER_MIN. */
  rateLimitPerMin: number | null;
}

@Injectable()
export class AccountsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Idempotent, and safe when several processes start at once. */
  async ensureAccount(id: string, name: string): Promise<void> {
    await this.prisma.$executeRaw`INSERT INTO accounts (id, name) VALUES (${id}, ${name}) ON CONFLICT (id) DO NOTHING`;
  }

  /**
   * Registers a key for an account, or gives a registered one these scopes: the scopes of a key that comes from
   * configuration follow the configuration.
   */
  async ensureAgentKey(accountId: string, key: string, label: string, scopes: readonly AgentScope[]): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO agent_keys (id, account_id, key_hash, label, scopes)
      VALUES (${randomUUID()}, ${accountId}, ${hashAgentKey(key)}, ${label}, ${[...scopes]}::text[])
      ON CONFLICT (key_hash) DO UPDATE SET scopes = EXCLUDED.scopes`;
  }

  async findActiveKey(key: string): Promise<AgentIdentity | undefined> {
    const row = await this.prisma.agentKey.findUnique({
      where: { keyHash: hashAgentKey(key) },
      select: { id: true, accountId: true, revokedAt: true, scopes: true, rateLimitPerMin: true },
    });
    if (!row || row.revokedAt) return undefined;
    return { agentKeyId: row.id, accountId: row.accountId, scopes: row.scopes as AgentScope[], rateLimitPerMin: row.rateLimitPerMin };
  }
}
