import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AgentScope } from '#libs/config';
import { type Account, type AgentKey, PrismaService } from '#libs/database';
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

/** What an account is created with; its credentials sealed already (AccountSecrets). */
export interface NewAccount {
  id: string;
  name: string;
  credentialsEnc: string;
  baseUrl: string | null;
  spotBaseUrl: string | null;
  ipWeightLimit: number | null;
  uidWeightLimit: number | null;
}

/** An account's stored credentials and endpoints, from which each process builds its exchange client. */
export type AccountClientRow = Pick<Account, 'id' | 'baseUrl' | 'spotBaseUrl' | 'ipWeightLimit' | 'uidWeightLimit'> & { credentialsEnc: string };

/** The owner of `accounts` and `agent_keys`: every read and write of them in libs/accounts goes through here. */
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

  /** Creates an account; false when one with that id exists already (nothing is changed). */
  async createAccount(account: NewAccount): Promise<boolean> {
    const { id, name, credentialsEnc, baseUrl, spotBaseUrl, ipWeightLimit, uidWeightLimit } = account;
    const inserted = await this.prisma.$executeRaw`
      INSERT INTO accounts (id, name, credentials_enc, base_url, spot_base_url, ip_weight_limit, uid_weight_limit)
      VALUES (${id}, ${name}, ${credentialsEnc}, ${baseUrl}, ${spotBaseUrl}, ${ipWeightLimit}, ${uidWeightLimit})
      ON CONFLICT (id) DO NOTHING`;
    return inserted > 0;
  }

  async setCredentials(id: string, credentialsEnc: string): Promise<void> {
    await this.prisma.account.update({ where: { id }, data: { credentialsEnc } });
  }

  /** Points the account's model calls at a provider; `keyEnc` is its key, sealed (AccountSecrets.sealLlmKey). */
  async setLlmUpstream(id: string, baseUrl: string, keyEnc: string): Promise<void> {
    await this.prisma.account.update({ where: { id }, data: { llmBaseUrl: baseUrl, llmKeyEnc: keyEnc } });
  }

  /** The account's model provider as stored; undefined when it has none (or there is no such account). */
  async findLlmUpstream(id: string): Promise<{ baseUrl: string; keyEnc: string } | undefined> {
    const row = await this.prisma.account.findUnique({ where: { id }, select: { llmBaseUrl: true, llmKeyEnc: true } });
    return row?.llmBaseUrl && row.llmKeyEnc ? { baseUrl: row.llmBaseUrl, keyEnc: row.llmKeyEnc } : undefined;
  }

  async findAccount(id: string): Promise<Account | null> {
    return this.prisma.account.findUnique({ where: { id } });
  }

  /** Every account, oldest first. */
  async listAccounts(): Promise<Account[]> {
    return this.prisma.account.findMany({ orderBy: { createdAt: 'asc' } });
  }

  /** The accounts with stored credentials (every one but the default account, whose come from config). */
  async accountsWithCredentials(): Promise<AccountClientRow[]> {
    const rows = await this.prisma.account.findMany({
      where: { credentialsEnc: { not: null } },
      select: { id: true, credentialsEnc: true, baseUrl: true, spotBaseUrl: true, ipWeightLimit: true, uidWeightLimit: true },
    });
    // The where clause leaves no null credentials, which Prisma's select type cannot say.
    return rows as AccountClientRow[];
  }

  async createAgentKey(
    key: Pick<AgentKey, 'id' | 'accountId' | 'keyHash' | 'label' | 'scopes' | 'rateLimitPerMin'> & Partial<Pick<AgentKey, 'expiresAt'>>,
  ): Promise<AgentKey> {
    return this.prisma.agentKey.create({ data: key });
  }

  async findAgentKey(id: string): Promise<AgentKey | null> {
    return this.prisma.agentKey.findUnique({ where: { id } });
  }

  /** The agent keys of one account, or of all, oldest first. */
  async listAgentKeys(accountId?: string): Promise<AgentKey[]> {
    return this.prisma.agentKey.findMany({ where: accountId ? { accountId } : {}, orderBy: { createdAt: 'asc' } });
  }

  /** Revokes the key now; this process forgets its cached keys at once (others within AGENT_KEY_CACHE_MS). */
  async revokeAgentKey(id: string): Promise<AgentKey> {
    const revoked = await this.prisma.agentKey.update({ where: { id }, data: { revokedAt: new Date() } });
    this.forgetKeys();
    return revoked;
  }

  async findActiveKey(key: string): Promise<AgentIdentity | undefined> {
    const keyHash = hashAgentKey(key);
    const cached = this.keys.get(keyHash);
    if (cached && cached.until > Date.now()) return cached.agent;
    const row = await this.prisma.agentKey.findUnique({
      where: { keyHash },
      select: { id: true, accountId: true, revokedAt: true, expiresAt: true, scopes: true, rateLimitPerMin: true },
    });
    const agent = row && activeIdentity(row);
    if (!agent) {
      this.keys.delete(keyHash);
      return undefined;
    }
    // Only keys that exist are kept, so that random keys cannot fill the cache; past the limit it starts over. A key
    // that expires sooner than the cache would trust it is kept only until then.
    if (this.keys.size >= CACHE_LIMIT) this.keys.clear();
    this.keys.set(keyHash, { agent, until: Math.min(Date.now() + AGENT_KEY_CACHE_MS, row.expiresAt?.getTime() ?? Infinity) });
    return agent;
  }

  /** The identity of a key by its id, if it is neither revoked nor expired: a console session's key, looked up anew. */
  async findActiveKeyById(id: string): Promise<AgentIdentity | undefined> {
    const row = await this.prisma.agentKey.findUnique({
      where: { id },
      select: { id: true, accountId: true, revokedAt: true, expiresAt: true, scopes: true, rateLimitPerMin: true },
    });
    return (row && activeIdentity(row)) ?? undefined;
  }
}

type KeyRow = Pick<AgentKey, 'id' | 'accountId' | 'revokedAt' | 'expiresAt' | 'scopes' | 'rateLimitPerMin'>;

function activeIdentity(row: KeyRow, now = Date.now()): AgentIdentity | undefined {
  if (row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now)) return undefined;
  return { agentKeyId: row.id, accountId: row.accountId, scopes: row.scopes as AgentScope[], rateLimitPerMin: row.rateLimitPerMin };
}
