import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { GatewayConfig } from '#libs/config';

const WINDOW_S = 60;

/** What the last answer of the store said of one key, and the takes sent since, whose answers are still to come. */
interface KeyState {
  remaining: number;
  resetAt: number;
  inFlight: number;
}

/**
 * Inbound requests per agent key per minute, so that one runaway agent cannot exhaust its account's exchange budget or
 * the gateway. With Redis the count is shared by every API process; while Redis is unreachable each process counts
 * in memory instead (an insurance limiter), because ingest must keep answering when Redis is down.
 *
 * Every request is counted, but a request waits for Redis's answer only near its key's limit: while the last answer
 * left more than a tenth of the limit beyond the takes still in flight, the request goes on at once. A round trip to
 * Redis, which wakes Redis and then this process again, added about 1.2 ms at p50 to every request on a shared VM
 * (docs/benchmarks.md, scenario 5). A key's count can then pass its limit only by what other processes took while
 * this one's answers were on their way; a caller that waits for each answer is limited exactly.
 */
@Injectable()
export class AgentRateLimiter implements OnApplicationShutdown {
  private readonly limiters = new Map<number, RateLimiterAbstract>();
  private readonly keys = new Map<string, KeyState>();
  private readonly redis?: Redis;

  constructor(private readonly config: GatewayConfig) {
    // Fail fast rather than queue commands while Redis is away; the insurance limiter answers then.
    if (config.redisUrl) this.redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    this.redis?.on('error', () => {});
  }

  /** Counts one request; resolves to undefined when allowed, or to the ms until the key may ask again. */
  take(agentKeyId: string, perMinute: number | null): Promise<number | undefined> {
    const limit = perMinute ?? this.config.agentRateLimitPerMin;
    if (limit === 0) return Promise.resolve(undefined);
    const id = `${limit}:${agentKeyId}`;
    const state = this.keys.get(id);
    const counted = this.count(limit, agentKeyId, id);
    if (state && state.resetAt > Date.now() && state.remaining - state.inFlight > Math.ceil(limit / 10)) {
      counted.catch(() => undefined);
      return Promise.resolve(undefined);
    }
    return counted;
  }

  private async count(limit: number, agentKeyId: string, id: string): Promise<number | undefined> {
    const state = this.keys.get(id) ?? { remaining: 0, resetAt: 0, inFlight: 0 };
    this.keys.set(id, state);
    state.inFlight++;
    let answer: RateLimiterRes | undefined;
    try {
      answer = await this.limiter(limit).consume(agentKeyId);
      return undefined;
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) return undefined; // the store failed and so did the insurance: let the request through rather than fail it
      answer = refusal;
      return Math.max(1, refusal.msBeforeNext);
    } finally {
      state.inFlight--;
      if (answer) Object.assign(state, { remaining: answer.remainingPoints, resetAt: Date.now() + answer.msBeforeNext });
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
