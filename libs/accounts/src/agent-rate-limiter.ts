import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { GatewayConfig } from '#libs/config';

const WINDOW_S = 60;

/**
 * Inbound requests per agent key per minute, so that one runaway agent cannot exhaust its account's exchange budget or
 * the gateway. With Redis the count is shared by every API process; while Redis is unreachable each process counts
 * in memory instead (an insurance limiter), because ingest must keep answering when Redis is down.
 */
@Injectable()
export class AgentRateLimiter implements OnApplicationShutdown {
  private readonly limiters = new Map<number, RateLimiterAbstract>();
  private readonly redis?: Redis;

  constructor(private readonly config: GatewayConfig) {
    // Fail fast rather than queue commands while Redis is away; the insurance limiter answers then.
    if (config.redisUrl) this.redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    this.redis?.on('error', () => {});
  }

  /** Counts one request; resolves to undefined when allowed, or to the ms until the key may ask again. */
  async take(agentKeyId: string, perMinute: number | null): Promise<number | undefined> {
    const limit = perMinute ?? this.config.agentRateLimitPerMin;
    if (limit === 0) return undefined;
    try {
      await this.limiter(limit).consume(agentKeyId);
      return undefined;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return Math.max(1, refusal.msBeforeNext);
      return undefined; // the store failed and so did the insurance: let the request through rather than fail it
    }
  }

  private limiter(points: number): RateLimiterAbstract {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      const options = { keyPrefix: `${this.config.queuePrefix}:agent-rate:${points}`, points, duration: WINDOW_S };
      limiter = this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
      this.limiters.set(points, limiter);
    }
    return limiter;
  }

  async onApplicationShutdown(): Promise<void> {
    const redis = this.redis;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }
}
