import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';
import { hashAgentKey } from './agent-key.js';

export interface AgentIdentity {
  agentKeyId: string;
  accountId: string;
}

@Injectable()
export class AccountsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Idempotent, and safe when several processes start at once. */
  async ensureAccount(id: string, name: string): Promise<void> {
    await this.prisma.$executeRaw`INSERT INTO accounts (id, name) VALUES (${id}, ${name}) ON CONFLICT (id) DO NOTHING`;
  }

  /** Registers a key for an account unless it is registered already. */
  async ensureAgentKey(accountId: string, key: string, label: string): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO agent_keys (id, account_id, key_hash, label) VALUES (${randomUUID()}, ${accountId}, ${hashAgentKey(key)}, ${label})
      ON CONFLICT (key_hash) DO NOTHING`;
  }

  async findActiveKey(key: string): Promise<AgentIdentity | undefined> {
    const row = await this.prisma.agentKey.findUnique({
      where: { keyHash: hashAgentKey(key) },
      select: { id: true, accountId: true, revokedAt: true },
    });
    return row && !row.revokedAt ? { agentKeyId: row.id, accountId: row.accountId } : undefined;
  }
}
