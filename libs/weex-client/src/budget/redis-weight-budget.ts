import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { BudgetWindow } from './budget-window.js';
import { LimiterWeightBudget } from './limiter-weight-budget.js';
import { assertLimitsFit, type BudgetLimit, type BudgetLimits, windowClock } from './weight-budget.js';
import { TAKE_IF_FITS_LUA } from './take-if-fits.lua.js';

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

function redisWindow(redis: Redis, keyPrefix: string, { limit, windowMs }: BudgetLimit, limits: BudgetLimits): BudgetWindow {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points: limit,
    // How long a window's key lives. RateLimiterRedis skips the script (and expiry) below 1 s.
    duration: Math.max(1000, windowMs) / 1000,
    customIncrTtlLuaScript: TAKE_IF_FITS_LUA,
  });
  return new BudgetWindow(limiter, limit, windowMs, windowClock(limits, windowMs), 'redis');
}

/**
 * A weight budget in Redis, shared by every process of a deployment that uses the same account and prefix.
 * A weight is taken only if it fits (atomically, in one script), so the processes together never exceed a limit
 * within a window.
 */
export function createRedisWeightBudget(options: RedisWeightBudgetOptions): LimiterWeightBudget {
  const { limits, redis } = options;
  assertLimitsFit(limits);
  const keys = budgetKeys(options);
  return new LimiterWeightBudget(redisWindow(redis, keys.ip, limits.ip, limits), redisWindow(redis, keys.uid, limits.uid, limits));
}
