import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { GatewayConfig } from '#libs/config';

/** How long a Redis command of the throttle may take before the in-process count answers instead. */
const REDIS_TIMEOUT_MS = 500;

/**
 * Failed admin-token attempts per client address: after ADMIN_AUTH_MAX_FAILURES within ADMIN_AUTH_WINDOW_MS, the
 * address's wrong tokens are refused until the window ends. AdminAuthGuard asks only once a token proved wrong, so
 * the right token is neither counted nor refused, from any address.
 * With Redis the count is shared by every API replica; without it (embedded mode), or while Redis does not answer,
 * each process counts in memory.
 */
@Injectable()
export class AdminAuthThrottle implements OnApplicationShutdown {
  private readonly logger = new Logger(AdminAuthThrottle.name);
  private limiter?: RateLimiterAbstract;
  private redis?: Redis;

  constructor(private readonly config: GatewayConfig) {}

  /** How long (ms) wrong tokens from `address` stay refused, or undefined while it has failures to spare. */
  async blockedFor(address: string): Promise<number | undefined> {
    const state = await this.failures()
      .get(address)
      .catch((error: unknown) => this.storeFailed(error));
    return state && state.consumedPoints >= this.config.adminAuthMaxFailures ? Math.max(1, state.msBeforeNext) : undefined;
  }

  /** Counts a wrong token from `address`. */
  async fail(address: string): Promise<void> {
    const state = await this.failures()
      .penalty(address, 1)
      .catch((error: unknown) => this.storeFailed(error));
    const max = this.config.adminAuthMaxFailures;
    const seconds = Math.ceil((state?.msBeforeNext ?? this.config.adminAuthWindowMs) / 1000);
    if (state && state.consumedPoints >= max)
      this.logger.warn(`admin token refused from ${address}: ${max} failures, its further wrong tokens refused for ${seconds} s`);
    else this.logger.warn(`admin token refused from ${address} (${state?.consumedPoints ?? '?'} of ${max} failures allowed in ${seconds} s)`);
  }

  private failures(): RateLimiterAbstract {
    if (!this.limiter) {
      const options = {
        keyPrefix: `${this.config.queuePrefix}:admin-auth-failures`,
        points: this.config.adminAuthMaxFailures,
        duration: Math.ceil(this.config.adminAuthWindowMs / 1000),
      };
      // Connected on first use: the worker imports this module too, and never needs the connection.
      this.redis = this.config.redisUrl
        ? new Redis(this.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: REDIS_TIMEOUT_MS })
        : undefined;
      this.redis?.on('error', (error: Error) => this.logger.debug(`Redis: ${error.message}`));
      this.limiter = this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
    }
    return this.limiter;
  }

  /** Both Redis and the in-memory insurance failed: throttling is lost for this attempt, the token check is not. */
  private storeFailed(error: unknown): undefined {
    this.logger.error(`admin-auth throttle unavailable: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    const redis = this.redis;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }
}
