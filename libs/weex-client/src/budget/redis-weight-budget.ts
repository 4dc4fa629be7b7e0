import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { BudgetWindow, PAUSE_KEY } from './budget-window.js';
import { LimiterWeightBudget, type TakeBoth } from './limiter-weight-budget.js';
import { assertLimitsFit, type BudgetLimit, type BudgetLimits, windowClock } from './weight-budget.js';
import { TAKE_BOTH_LUA } from './take-both.lua.js';
import { WeightCredit } from './weight-credit.js';

export interface RedisWeightBudgetOptions {
  /** An ioredis connection for budgets only (the library defines a script command on it); not closed here. */
  redis: Redis;
  /** Namespace shared by the processes of one deployment, e.g. the queue prefix; default `gateway`. */
  prefix?: string;
  /** The account's API key: only its hash is used, in the UID budget's key. */
  apiKey: string;
  /** Names the IP budget, shared by every account calling from that IP; default `default`. */
  ipName?: string;
  limits: BudgetLimits;
}

/** The first 16 hex digits of SHA-256 of the API key: tells accounts apart without storing the key. */
export function apiKeyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}

/**
 * The key prefixes of a budget: `<prefix>:weex-budget:ip:<ipName>` and `<prefix>:weex-budget:uid:<apiKeyHash>`,
 * each followed by `:w<window index>` (one key per window) or `:pause`. Every process using the same prefix and
 * account shares them.
 */
export function budgetKeys(options: Pick<RedisWeightBudgetOptions, 'prefix' | 'apiKey' | 'ipName'>): { ip: string; uid: string } {
  const base = `${options.prefix ?? 'gateway'}:weex-budget`;
  return { ip: `${base}:ip:${options.ipName ?? 'default'}`, uid: `${base}:uid:${apiKeyHash(options.apiKey)}` };
}

/** How long a window's key lives: at least 1 s, as RateLimiterRedis keeps keys. */
const lifetimeMs = (windowMs: number) => Math.max(1000, windowMs);

function redisWindow(redis: Redis, keyPrefix: string, { limit, windowMs }: BudgetLimit, limits: BudgetLimits): BudgetWindow {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points: limit,
    duration: lifetimeMs(windowMs) / 1000,
  });
  return new BudgetWindow(limiter, limit, windowMs, windowClock(limits, windowMs), 'redis');
}

/**
 * A weight budget in Redis, shared by every process of a deployment that uses the same account and prefix.
 * A weight is taken only if it fits (atomically, in one script), so the processes together never exceed a limit
 * within a window. While a window has room, a take also leases weight for later calls (WeightCredit).
 */
export function createRedisWeightBudget(options: RedisWeightBudgetOptions): LimiterWeightBudget {
  const { limits, redis } = options;
  assertLimitsFit(limits);
  const keys = budgetKeys(options);
  const ip = redisWindow(redis, keys.ip, limits.ip, limits);
  const uid = redisWindow(redis, keys.uid, limits.uid, limits);
  const credit = new WeightCredit();
  return new LimiterWeightBudget(ip, uid, takeBothInRedis(redis, keys, ip, uid, credit), () => credit.drop());
}

type TakeBothCommand = (...args: Array<string | number>) => Promise<[number, number, number, number]>;

/**
 * Both windows' takes as one script: one command and one round trip per call, where the limiters take four (the
 * pauses read, then each window), and nothing to give back when one window refuses. A call that the credit covers
 * makes no round trip.
 */
function takeBothInRedis(redis: Redis, keys: { ip: string; uid: string }, ip: BudgetWindow, uid: BudgetWindow, credit: WeightCredit): TakeBoth {
  if (!('weexTakeBoth' in redis)) redis.defineCommand('weexTakeBoth', { numberOfKeys: 4, lua: TAKE_BOTH_LUA });
  const command = (redis as unknown as { weexTakeBoth: TakeBothCommand }).weexTakeBoth.bind(redis);
  return async (weight) => {
    const ipSlot = ip.slot();
    const uidSlot = uid.slot();
    // Close to a window boundary nothing is taken (as BudgetWindow.take): wait for the guard, then ask.
    const guard = Math.max(weight.ip > 0 ? ipSlot.guardWait : 0, weight.uid > 0 ? uidSlot.guardWait : 0);
    if (guard > 0) return guard;
    const window = `${ipSlot.key}:${uidSlot.key}`;
    if (credit.take(window, weight)) return 0;
    const lease = credit.ask(weight, { ip: ip.limit, uid: uid.limit });
    let answer: [number, number, number, number] | undefined;
    try {
      answer = await command(
        `${keys.ip}:${PAUSE_KEY}`, `${keys.uid}:${PAUSE_KEY}`, `${keys.ip}:${ipSlot.key}`, `${keys.uid}:${uidSlot.key}`,
        weight.ip, weight.uid, ip.limit, uid.limit, lifetimeMs(ip.windowMs), lifetimeMs(uid.windowMs), lease.ip, lease.uid,
      );
    } finally {
      credit.settle(lease, window, answer?.[3] === 1);
    }
    const [pausedMs, ipRefused, uidRefused] = answer;
    if (pausedMs === 0 && (ipRefused || uidRefused) && credit.take(window, weight)) return 0; // a lease landed meanwhile
    return Math.max(pausedMs, ipRefused ? ipSlot.msLeft + ip.clock.guardMs : 0, uidRefused ? uidSlot.msLeft + uid.clock.guardMs : 0);
  };
}
