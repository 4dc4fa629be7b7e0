import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { GatewayConfig } from '#libs/config';
import { WatchedRedis } from '#libs/redis';

const WINDOW_S = 60;
/**
 * How long requests let through gather before their count is sent. Per turn of the event loop this was about one
 * command per ten requests at 8,800 requests/s, each costing the API about 46 µs (4% of its main thread); the price
 * of waiting is only that other processes see this one's count up to this much later.
 */
const GATHER_MS = 10;

/**
 * One key's count as this process knows it: the last answer of the store, the points sent since (answers to come),
 * and the requests let through since the last send (to be sent together).
 */
interface KeyState {
  limit: number;
  agentKeyId: string;
  remaining: number;
  resetAt: number;
  inFlight: number;
  pending: number;
}

/**
 * Inbound requests per agent key per minute, so that one runaway agent cannot exhaust its account's exchange budget or
 * the gateway. With Redis the count is shared by every API process; while Redis is unreachable each process counts
 * in memory instead (an insurance limiter), because ingest must keep answering when Redis is down.
 *
 * Every request is counted, but a request waits for Redis's answer only near its key's limit: while the last answer
 * left more than a tenth of the limit beyond what was counted since, the request goes on at once, and such requests
 * are sent as one count every GATHER_MS. A round trip to Redis, which wakes Redis and then this process
 * again, added about 1.2 ms at p50 to every request on a shared VM (docs/benchmarks.md, scenario 5). A key's count
 * can then pass its limit only by what other processes counted while this one's answers were on their way; a caller
 * that waits for each answer is limited exactly.
 */
@Injectable()
export class AgentRateLimiter implements OnApplicationShutdown {
  private readonly limiters = new Map<number, RateLimiterAbstract>();
  private readonly keys = new Map<string, KeyState>();
  private readonly redis?: WatchedRedis;

  constructor(private readonly config: GatewayConfig) {
    // Fail fast rather than queue commands while Redis is away or silent; the insurance limiter answers then.
    if (config.redisUrl) {
      const options = { enableOfflineQueue: false, maxRetriesPerRequest: 1 };
      this.redis = new WatchedRedis(config.redisUrl, 'agent-rate-limit', config.redisCommandTimeoutMs, options);
    }
  }

  /**
   * Counts `points` (a request, or the logs of a batch); resolves to undefined when allowed, or to the ms until the
   * key may ask again. Points refused are given back, so that a batch refused leaves room for a smaller one.
   */
  take(agentKeyId: string, perMinute: number | null, points = 1): Promise<number | undefined> {
    const limit = perMinute ?? this.config.agentRateLimitPerMin;
    if (limit === 0) return Promise.resolve(undefined);
    const id = `${limit}:${agentKeyId}`;
    let state = this.keys.get(id);
    if (!state) this.keys.set(id, (state = { limit, agentKeyId, remaining: 0, resetAt: 0, inFlight: 0, pending: 0 }));
    if (state.resetAt > Date.now() && state.remaining - state.inFlight - state.pending - points >= Math.ceil(limit / 10)) {
      if (state.pending === 0) setTimeout(() => void this.sendPending(state), GATHER_MS).unref();
      state.pending += points;
      return Promise.resolve(undefined);
    }
    // Near the limit: what was let through goes first, so that this request's answer counts it.
    void this.sendPending(state);
    return this.countNearLimit(state, points);
  }

  private async countNearLimit(state: KeyState, points: number): Promise<number | undefined> {
    const waitMs = await this.count(state, points);
    if (waitMs !== undefined && points > 1)
      await this.limiter(state.limit)
        .reward(state.agentKeyId, points)
        .catch(() => undefined);
    return waitMs;
  }

  private async sendPending(state: KeyState): Promise<void> {
    const points = state.pending;
    state.pending = 0;
    if (points > 0) await this.count(state, points).catch(() => undefined);
  }

  private async count(state: KeyState, points: number): Promise<number | undefined> {
    state.inFlight += points;
    let answer: RateLimiterRes | undefined;
    try {
      answer = await this.limiter(state.limit).consume(state.agentKeyId, points);
      return undefined;
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) return undefined; // the store failed and so did the insurance: let the request through rather than fail it
      answer = refusal;
      return Math.max(1, refusal.msBeforeNext);
    } finally {
      state.inFlight -= points;
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
    // What was let through since the last send is counted before the connection closes.
    await Promise.all([...this.keys.values()].map((state) => this.sendPending(state)));
    const redis = this.redis;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }
}
