import { createHash } from 'node:crypto';
import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { WatchedRedis } from '#libs/redis';
import { type BudgetLimits, createMemoryWeightBudget, createRedisWeightBudget } from '#libs/weight-budget';
import { HEAVIEST_WEIGHT, WeexClient, type WeexCredentials } from '#libs/weex-client';

/** How to reach the exchange for one account; unset fields take the deployment's settings. */
export interface AccountExchangeSettings {
  credentials: WeexCredentials;
  baseUrl?: string | null;
  spotBaseUrl?: string | null;
  ipWeightLimit?: number | null;
  uidWeightLimit?: number | null;
}

/** Token of what the module owns: the client factory and its budgets' Redis connection, if any. */
const WEEX_RUNTIME = Symbol('WEEX_RUNTIME');

interface WeexRuntime {
  build(settings: AccountExchangeSettings): WeexClient;
  redis?: WatchedRedis;
}

function createRuntime(config: GatewayConfig): WeexRuntime {
  // Its own connection, watched on its own (WatchedRedis). A take that Redis leaves unanswered fails within the
  // command timeout: a query answers 503 rather than hang, an upload is retried.
  const redis = config.redisUrl ? new WatchedRedis(config.redisUrl, 'weight-budget', config.redisCommandTimeoutMs, { maxRetriesPerRequest: 3 }) : undefined;
  const build = (settings: AccountExchangeSettings) => {
    const budget = (now: () => number) => {
      const window = config.weexWeightWindowMs;
      const limits: BudgetLimits = {
        ip: { limit: settings.ipWeightLimit ?? config.weexIpWeightLimit, windowMs: window },
        uid: { limit: settings.uidWeightLimit ?? config.weexUidWeightLimit, windowMs: window },
        guardMs: config.weexWeightGuardMs,
        heaviest: HEAVIEST_WEIGHT,
        now,
      };
      const { apiKey } = settings.credentials;
      // In Redis the IP budget is one key for every account of the deployment, the UID budget one per API key.
      return redis ? createRedisWeightBudget({ redis, prefix: config.queuePrefix, apiKey, limits }) : createMemoryWeightBudget(limits);
    };
    return new WeexClient({
      baseUrl: settings.baseUrl ?? config.weex.baseUrl,
      spotBaseUrl: settings.spotBaseUrl ?? config.weex.spotBaseUrl,
      credentials: settings.credentials,
      timeoutMs: config.weexTimeoutMs,
      budget,
    });
  };
  return { build, redis };
}

/**
 * The exchange client of each account the gateway serves: `default`, with the configured credentials, and every
 * account an admin added (registered by libs/accounts, which decrypts their credentials). Callers that act for an
 * agent ask by the agent's account.
 */
export class WeexAccountClients {
  private readonly clients = new Map<string, { client: WeexClient; fingerprint: string }>();
  private reload?: () => Promise<void>;
  private reloading?: Promise<void>;

  constructor(
    private readonly build: (settings: AccountExchangeSettings) => WeexClient,
    readonly defaultAccountId: string,
    defaultClient: WeexClient,
  ) {
    this.clients.set(defaultAccountId, { client: defaultClient, fingerprint: '' });
  }

  /** The account's client, or undefined when the gateway holds no credentials for it. */
  forAccount(accountId: string): WeexClient | undefined {
    return this.clients.get(accountId)?.client;
  }

  /**
   * Like forAccount, but an unknown account first makes the loader read the accounts again (one read at a time), so
   * that an account an admin added in another process is served at once rather than at the next periodic refresh.
   */
  async resolve(accountId: string): Promise<WeexClient | undefined> {
    if (!this.clients.has(accountId)) await this.reloadNow();
    return this.forAccount(accountId);
  }

  /**
   * After the exchange refused a client's credentials: reads the accounts again and says whether the account now has
   * another client (its credentials were rotated in another process since this one last looked).
   */
  async replacedSince(accountId: string, client: WeexClient): Promise<boolean> {
    if (accountId === this.defaultAccountId) return false;
    await this.reloadNow();
    const current = this.forAccount(accountId);
    return current !== undefined && current !== client;
  }

  private async reloadNow(): Promise<void> {
    if (!this.reload) return;
    this.reloading ??= this.reload().finally(() => (this.reloading = undefined));
    await this.reloading.catch(() => undefined);
  }

  /** Set by whoever registers the accounts (libs/accounts), for resolve. */
  setReload(reload: () => Promise<void>): void {
    this.reload = reload;
  }

  /** Every account with credentials, for jobs that run per account. */
  accountIds(): string[] {
    return [...this.clients.keys()];
  }

  /** Adds or replaces an account's client; unchanged settings keep the client (and its measured clock offset). */
  register(accountId: string, settings: AccountExchangeSettings): void {
    if (accountId === this.defaultAccountId) throw new Error('the default account takes its credentials from the configuration');
    // A digest, so that the credentials are not kept a second time in memory as text.
    const fingerprint = createHash('sha256').update(JSON.stringify(settings)).digest('hex');
    if (this.clients.get(accountId)?.fingerprint === fingerprint) return;
    this.clients.set(accountId, { client: this.build(settings), fingerprint });
  }

  unregister(accountId: string): void {
    if (accountId !== this.defaultAccountId) this.clients.delete(accountId);
  }
}

/**
 * Wraps the framework-free client for Nest: one WeexClient per account per process, its weight budget in Redis when
 * REDIS_URL is set (shared by every process of the deployment that uses the account), in memory otherwise.
 * `WeexClient` itself is the default account's client.
 */
@Module({
  providers: [
    { provide: WEEX_RUNTIME, inject: [GatewayConfig], useFactory: createRuntime },
    {
      provide: WeexAccountClients,
      inject: [WEEX_RUNTIME, GatewayConfig],
      // 'default' is DEFAULT_ACCOUNT_ID of libs/accounts, written out so that this lib does not depend on that one.
      useFactory: (runtime: WeexRuntime, config: GatewayConfig) =>
        new WeexAccountClients(runtime.build, 'default', runtime.build({ credentials: config.weex.credentials })),
    },
    { provide: WeexClient, inject: [WeexAccountClients], useFactory: (clients: WeexAccountClients) => clients.forAccount('default') },
  ],
  exports: [WeexClient, WeexAccountClients],
})
export class WeexModule implements OnApplicationShutdown {
  constructor(@Inject(WEEX_RUNTIME) private readonly runtime: WeexRuntime) {}

  /** Last shutdown phase: in-flight uploads, finished in onModuleDestroy, still spend budget. */
  async onApplicationShutdown(): Promise<void> {
    const redis = this.runtime.redis;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }
}
