import { randomUUID } from 'node:crypto';
import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { AgentScope } from '#libs/config';
import type { Account, AgentKey } from '#libs/database';
import { AccountClientsLoader } from './account-clients.loader.js';
import { AccountSecrets } from './account-secrets.js';
import { AccountsRepository } from './accounts.repository.js';
import type { AccountCredentialsDto, CreateAccountDto, CreateAgentKeyDto } from './admin.dto.js';
import { DEFAULT_ACCOUNT_ID } from './agent-access.service.js';
import { generateAgentKey, hashAgentKey } from './agent-key.js';

/** An account as admins see it: never its credentials. */
export interface AccountView {
  id: string;
  name: string;
  createdAt: string;
  /** `config` for the default account (credentials from the environment), `stored` when encrypted in the database. */
  credentials: 'config' | 'stored' | 'none';
  baseUrl: string | null;
  spotBaseUrl: string | null;
  ipWeightLimit: number | null;
  uidWeightLimit: number | null;
  uploadsPausedAt: string | null;
}

export interface AgentKeyView {
  id: string;
  accountId: string;
  label: string;
  scopes: string[];
  rateLimitPerMin: number | null;
  createdAt: string;
  revokedAt: string | null;
  /** When a judge key ends by itself; null: never. */
  expiresAt: string | null;
}

const DEFAULT_SCOPES: AgentScope[] = ['logs:write', 'exchange:read'];

/** What admins do to accounts and agent keys. Secrets go in encrypted and never come out. */
@Injectable()
export class AccountAdminService {
  constructor(
    private readonly secrets: AccountSecrets,
    private readonly loader: AccountClientsLoader,
    private readonly accounts: AccountsRepository,
  ) {}

  async createAccount(dto: CreateAccountDto): Promise<AccountView> {
    const credentialsEnc = this.secrets.seal(dto.id, dto);
    const { id, name, baseUrl, spotBaseUrl, ipWeightLimit, uidWeightLimit } = dto;
    const created = await this.accounts.createAccount({
      id,
      name,
      credentialsEnc,
      baseUrl: baseUrl ?? null,
      spotBaseUrl: spotBaseUrl ?? null,
      ipWeightLimit: ipWeightLimit ?? null,
      uidWeightLimit: uidWeightLimit ?? null,
    });
    if (!created) throw new ConflictException(`account ${id} exists already`);
    await this.loader.refresh();
    return this.account(id);
  }

  /** Rotates an account's credentials; the new ones are used by every process within a refresh interval. */
  async replaceCredentials(id: string, dto: AccountCredentialsDto): Promise<AccountView> {
    if (id === DEFAULT_ACCOUNT_ID) throw new ConflictException('the default account takes its credentials from WEEX_API_* variables');
    await this.account(id);
    await this.accounts.setCredentials(id, this.secrets.seal(id, dto));
    await this.loader.refresh();
    return this.account(id);
  }

  async listAccounts(): Promise<AccountView[]> {
    return (await this.accounts.listAccounts()).map(toAccountView);
  }

  async account(id: string): Promise<AccountView> {
    const row = await this.accounts.findAccount(id);
    if (!row) throw new NotFoundException(`no account ${id}`);
    return toAccountView(row);
  }

  /** Makes a key for an agent of the account. The key is in this answer only: the database keeps its SHA-256. */
  async createAgentKey(dto: CreateAgentKeyDto): Promise<AgentKeyView & { key: string }> {
    await this.account(dto.accountId);
    return issueAgentKey(this.accounts, {
      accountId: dto.accountId,
      label: dto.label,
      scopes: dto.scopes ?? DEFAULT_SCOPES,
      rateLimitPerMin: dto.rateLimitPerMin ?? null,
    });
  }

  async listAgentKeys(accountId?: string): Promise<AgentKeyView[]> {
    return (await this.accounts.listAgentKeys(accountId)).map(toAgentKeyView);
  }

  /**
   * Revocation takes effect on the key's next request to this process, and within AGENT_KEY_CACHE_MS on other API
   * processes; revoking twice keeps the first time.
   */
  async revokeAgentKey(id: string): Promise<AgentKeyView> {
    const row = await this.accounts.findAgentKey(id);
    if (!row) throw new NotFoundException(`no agent key ${id}`);
    if (row.revokedAt) return toAgentKeyView(row);
    return toAgentKeyView(await this.accounts.revokeAgentKey(id));
  }
}

function toAccountView(row: Account): AccountView {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    credentials: row.id === DEFAULT_ACCOUNT_ID ? 'config' : row.credentialsEnc ? 'stored' : 'none',
    baseUrl: row.baseUrl,
    spotBaseUrl: row.spotBaseUrl,
    ipWeightLimit: row.ipWeightLimit,
    uidWeightLimit: row.uidWeightLimit,
    uploadsPausedAt: row.uploadsPausedAt?.toISOString() ?? null,
  };
}

/** Makes a key and stores its SHA-256: the key is in the answer only. */
export async function issueAgentKey(
  accounts: AccountsRepository,
  key: Pick<AgentKey, 'accountId' | 'label' | 'scopes' | 'rateLimitPerMin'> & Partial<Pick<AgentKey, 'expiresAt'>>,
): Promise<AgentKeyView & { key: string }> {
  const secret = generateAgentKey();
  const row = await accounts.createAgentKey({ id: randomUUID(), keyHash: hashAgentKey(secret), ...key });
  return { ...toAgentKeyView(row), key: secret };
}

export function toAgentKeyView(row: AgentKey): AgentKeyView {
  return {
    id: row.id,
    accountId: row.accountId,
    label: row.label,
    scopes: row.scopes,
    rateLimitPerMin: row.rateLimitPerMin,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}
