import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PrismaService } from '#libs/database';
import { registerSecret } from '#libs/logging';
import { WeexAccountClients } from '#libs/weex-client';
import { AccountSecrets } from './account-secrets.js';

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

  constructor(
    private readonly prisma: PrismaService,
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
    const rows = await this.prisma.account.findMany({ where: { credentialsEnc: { not: null } } });
    const seen = new Set<string>();
    for (const row of rows) {
      if (row.id === this.clients.defaultAccountId) continue;
      try {
        const credentials = this.secrets.open(row.id, row.credentialsEnc!);
        for (const value of Object.values(credentials)) registerSecret(value);
        const { baseUrl, spotBaseUrl, ipWeightLimit, uidWeightLimit } = row;
        this.clients.register(row.id, { credentials, baseUrl, spotBaseUrl, ipWeightLimit, uidWeightLimit });
        seen.add(row.id);
      } catch {
        this.logger.error(`account ${row.id}: its stored credentials cannot be decrypted with SECRETS_KEY; skipped`);
      }
    }
    for (const id of this.clients.accountIds()) if (id !== this.clients.defaultAccountId && !seen.has(id)) this.clients.unregister(id);
  }
}
