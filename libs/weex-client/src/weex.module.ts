import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { GatewayConfig } from '#libs/config';
import { createMemoryWeightBudget } from './budget/memory-weight-budget.js';
import { createRedisWeightBudget } from './budget/redis-weight-budget.js';
import type { BudgetLimits } from './budget/weight-budget.js';
import { WeexClient } from './weex-client.js';

/** Token of the configured account's client together with what it owns: its budget's Redis connection, if any. */
const WEEX_RUNTIME = Symbol('WEEX_RUNTIME');

interface WeexRuntime {
  client: WeexClient;
  redis?: Redis;
}

function createRuntime(config: GatewayConfig): WeexRuntime {
  // Its own connection: rate-limiter-flexible defines a script command on it.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) : undefined;
  const budget = (now: () => number) => {
    const window = config.weexWeightWindowMs;
    const limits: BudgetLimits = {
      ip: { limit: config.weexIpWeightLimit, windowMs: window },
      uid: { limit: config.weexUidWeightLimit, windowMs: window },
      now,
    };
    const { apiKey } = config.weex.credentials;
    return redis ? createRedisWeightBudget({ redis, prefix: config.queuePrefix, apiKey, limits }) : createMemoryWeightBudget(limits);
  };
  const { baseUrl, spotBaseUrl, credentials } = config.weex;
  const client = new WeexClient({ baseUrl, spotBaseUrl, credentials, timeoutMs: config.weexTimeoutMs, budget });
  return { client, redis };
}

/**
 * The exchange client of each account the gateway serves. Today one account, `default`, with the configured
 * credentials; callers that act for an agent ask by the agent's account so that more accounts slot in here.
 */
export class WeexAccountClients {
  constructor(
    private readonly defaultAccountId: string,
    private readonly client: WeexClient,
  ) {}

  /** The account's client, or undefined when the gateway holds no credentials for it. */
  forAccount(accountId: string): WeexClient | undefined {
    return accountId === this.defaultAccountId ? this.client : undefined;
  }

  /** Every account with credentials, for jobs that run per account. */
  accountIds(): string[] {
    return [this.defaultAccountId];
  }
}

/**
 * Wraps the framework-free client for Nest: one WeexClient per process for the configured account, its weight
 * budget in Redis when REDIS_URL is set (shared by every process of the deployment that uses the account), in
 * memory otherwise.
 */
@Module({
  providers: [
    { provide: WEEX_RUNTIME, inject: [GatewayConfig], useFactory: createRuntime },
    { provide: WeexClient, inject: [WEEX_RUNTIME], useFactory: (runtime: WeexRuntime) => runtime.client },
    // 'default' is DEFAULT_ACCOUNT_ID of libs/accounts, written out so that this lib does not depend on that one.
    { provide: WeexAccountClients, inject: [WEEX_RUNTIME], useFactory: (runtime: WeexRuntime) => new WeexAccountClients('default', runtime.client) },
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
