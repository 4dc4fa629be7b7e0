import { Injectable, NotFoundException } from '@nestjs/common';
import { IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { type AgentKeyView, issueAgentKey, toAgentKeyView } from './account-admin.service.js';
import { AccountsRepository } from './accounts.repository.js';

/** The longest a judge key may live: a competition's season. */
export const MAX_JUDGE_KEY_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `POST /v1/judge-keys`. */
export class CreateJudgeKeyDto {
  @IsString() @IsNotEmpty() @MaxLength(200) label: string;

  @IsInt() @Min(1) @Max(MAX_JUDGE_KEY_DAYS) expiresInDays: number;
}

/**
 * Judge keys: read-only keys (scope `audit:read`: the decisions, coverage and proofs of one account) that a team
 * issues to the people who judge it. They expire by themselves, and the team may revoke them sooner.
 */
@Injectable()
export class JudgeKeysService {
  constructor(private readonly accounts: AccountsRepository) {}

  /** The key is in this answer only: the database keeps its SHA-256. */
  async create(accountId: string, dto: CreateJudgeKeyDto): Promise<AgentKeyView & { key: string }> {
    const expiresAt = new Date(Date.now() + dto.expiresInDays * DAY_MS);
    return issueAgentKey(this.accounts, { accountId, label: dto.label, scopes: ['audit:read'], rateLimitPerMin: null, expiresAt });
  }

  async list(accountId: string): Promise<AgentKeyView[]> {
    return (await this.accounts.listAgentKeys(accountId)).filter(isJudgeKey).map(toAgentKeyView);
  }

  /** Only a judge key of the caller's own account: any other id is 404, as if it did not exist. */
  async revoke(accountId: string, id: string): Promise<AgentKeyView> {
    const row = await this.accounts.findAgentKey(id);
    if (!row || row.accountId !== accountId || !isJudgeKey(row)) throw new NotFoundException(`no judge key ${id}`);
    return toAgentKeyView(row.revokedAt ? row : await this.accounts.revokeAgentKey(id));
  }
}

const isJudgeKey = (row: { scopes: string[] }): boolean => row.scopes.length === 1 && row.scopes[0] === 'audit:read';
