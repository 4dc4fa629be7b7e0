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

/**
 * How long a process trusts an agent key it looked up. Ingest would otherwise spend one query per request on it; a key
 * revoked through another API process stops working there within this time (at once in the revoking process).
 */
export const AGENT_KEY_CACHE_MS = 5_000;
const CACHE_LIMIT = 10_000;

@Injectable()
export class AccountsRepository {
  private readonly keys = new Map<string, { agent: AgentIdentity; until: number }>();

  constructor(private readonly prisma: PrismaService) {}

  /** Forgets every cached key, after a revocation in this process. */
  forgetKeys(): void {
    this.keys.clear();
  }

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
    const keyHash = hashAgentKey(key);
    const cached = this.keys.get(keyHash);
    if (cached && cached.until > Date.now()) return cached.agent;
    const row = await this.prisma.agentKey.findUnique({
      where: { keyHash },
      select: { id: true, accountId: true, revokedAt: true, scopes: true, rateLimitPerMin: true },
    });
    if (!row || row.revokedAt) {
      this.keys.delete(keyHash);
      return undefined;
    }
    const agent = { agentKeyId: row.id, accountId: row.accountId, scopes: row.scopes as AgentScope[], rateLimitPerMin: row.rateLimitPerMin };
    // Only keys that exist are kept, so that random keys cannot fill the cache; past the limit it starts over.
    if (this.keys.size >= CACHE_LIMIT) this.keys.clear();
    this.keys.set(keyHash, { agent, until: Date.now() + AGENT_KEY_CACHE_MS });
    return agent;
  }
}
