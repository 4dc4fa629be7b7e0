import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { registerSecret } from '#libs/logging';
import { WeexAccountClients } from '#libs/weex-nest';
import { AccountSecrets } from './account-secrets.js';
import { AccountsRepository } from './accounts.repository.js';

/** How often each process picks up accounts added or changed by an admin in another process. */
const REFRESH_MS = 10_000;

/**
 * Gives every account with stored credentials an exchange client in this process: at start, every REFRESH_MS, and at
 * once after an admin change in this process. A row that cannot be decrypted is skipped with an error that names the
 * account and nothing else.
 */
@Injectable()
export class AccountClientsLoader implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AccountClientsLoader.name);
  private timer?: NodeJS.Timeout;
  /** The sealed credentials each registered account was built from: unchanged rows are not decrypted again. */
  private readonly loaded = new Map<string, string>();

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly secrets: AccountSecrets,
    private readonly clients: WeexAccountClients,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.clients.setReload(() => this.refresh());
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch((e: Error) => this.logger.warn(`account refresh failed: ${e.message}`)), REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    const rows = await this.accounts.accountsWithCredentials();
    const seen = new Set<string>();
    for (const { id, credentialsEnc, ...endpoints } of rows) {
      if (id === this.clients.defaultAccountId) continue;
      const version = `${credentialsEnc} ${JSON.stringify(endpoints)}`;
      if (this.loaded.get(id) === version) {
        seen.add(id);
        continue;
      }
      try {
        const credentials = this.secrets.open(id, credentialsEnc);
        for (const value of Object.values(credentials)) registerSecret(value);
        this.clients.register(id, { credentials, ...endpoints });
        this.loaded.set(id, version);
        seen.add(id);
      } catch {
        this.logger.error(`account ${id}: its stored credentials cannot be decrypted with SECRETS_KEY; skipped`);
      }
    }
    for (const id of this.clients.accountIds()) {
      if (id !== this.clients.defaultAccountId && !seen.has(id)) {
        this.clients.unregister(id);
        this.loaded.delete(id);
      }
    }
  }
}
