import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { AccountSecrets } from './account-secrets.js';
import { AccountsRepository } from './accounts.repository.js';
import type { LlmUpstreamDto } from './admin.dto.js';
import { DEFAULT_ACCOUNT_ID } from './agent-access.service.js';

/** Where an account's model calls go: an OpenAI-compatible base URL, and the account's key there (if it needs one). */
export interface LlmUpstream {
  baseUrl: string;
  apiKey: string | undefined;
}

/** An account's model provider as admins see it: never its key. */
export interface LlmUpstreamView {
  accountId: string;
  baseUrl: string;
  apiKey: 'stored';
}

/**
 * The model provider of each account: the default account's from LLM_UPSTREAM_URL and LLM_UPSTREAM_KEY, any other's as
 * an admin stored it, its key sealed like the account's WEEX credentials. Keys go in and out of here only to be sent to
 * their provider.
 */
@Injectable()
export class LlmUpstreamService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly secrets: AccountSecrets,
    private readonly accounts: AccountsRepository,
  ) {}

  async set(accountId: string, dto: LlmUpstreamDto): Promise<LlmUpstreamView> {
    if (accountId === DEFAULT_ACCOUNT_ID)
      throw new ConflictException('the default account takes its model provider from LLM_UPSTREAM_URL and LLM_UPSTREAM_KEY');
    if (!(await this.accounts.findAccount(accountId))) throw new NotFoundException(`no account ${accountId}`);
    const baseUrl = withoutTrailingSlash(dto.baseUrl);
    await this.accounts.setLlmUpstream(accountId, baseUrl, this.secrets.sealLlmKey(accountId, dto.apiKey));
    return { accountId, baseUrl, apiKey: 'stored' };
  }

  /** The provider configured for the account; undefined when none is (the caller may fall back to the sandbox's). */
  async configured(accountId: string): Promise<LlmUpstream | undefined> {
    if (accountId === DEFAULT_ACCOUNT_ID) {
      const { llmUpstreamUrl, llmUpstreamKey } = this.config;
      return llmUpstreamUrl ? { baseUrl: withoutTrailingSlash(llmUpstreamUrl), apiKey: llmUpstreamKey } : undefined;
    }
    const stored = await this.accounts.findLlmUpstream(accountId);
    return stored && { baseUrl: stored.baseUrl, apiKey: this.secrets.openLlmKey(accountId, stored.keyEnc) };
  }
}

const withoutTrailingSlash = (url: string): string => url.replace(/\/+$/, '');
