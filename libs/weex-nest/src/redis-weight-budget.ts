import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import {
  assertLimitsFit,
  type BudgetLimit,
  type BudgetLimits,
  BudgetWindow,
  LimiterWeightBudget,
  PAUSE_KEY,
  type Take,
  type Weight,
  WeightCredit,
  type WeightStore,
  windowClock,
} from '#libs/weex-client';
import { GIVE_BACK_LUA, TAKE_BOTH_LUA } from './take-both.lua.js';

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
 * each followed by `:w<window index>` (one key per window) or `:pause`; the IP window's weight by account (by
 * apiKeyHash) is `:w<window index>:accounts`, and the last window each account took IP weight in `:accounts`.
 * Every process using the same prefix and account shares them.
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

/** The least IP weight an account's fair share holds for it: a fiftieth of the limit. */
const RESERVE_DIVISOR = 50;
/** How long an account that took IP weight keeps a fair share of the IP window. */
const FAIR_SHARE_KEPT_MS = 300_000;
/** The last part of an IP window in which fair shares hold nothing back: a tenth. */
const RELEASE_DIVISOR = 10;

/**
 * A weight budget in Redis, shared by every process of a deployment that uses the same account and prefix.
 * A weight is taken only if it fits (atomically, in one script), so the processes together never exceed a limit
 * within a window, and the IP window is shared fairly between the deployment's accounts (TAKE_BOTH_LUA). While a
 * window has room, a take also leases weight for later calls (WeightCredit).
 */
export function createRedisWeightBudget(options: RedisWeightBudgetOptions): LimiterWeightBudget {
  const { limits, redis } = options;
  assertLimitsFit(limits);
  const keys = budgetKeys(options);
  const ip = redisWindow(redis, keys.ip, limits.ip, limits);
  const uid = redisWindow(redis, keys.uid, limits.uid, limits);
  const credit = new WeightCredit();
  return new LimiterWeightBudget(ip, uid, redisStore(redis, { ...keys, account: apiKeyHash(options.apiKey) }, ip, uid, credit), () => credit.drop());
}

type TakeBothCommand = (...args: Array<string | number>) => Promise<[number, number, number, number]>;
type GiveBackCommand = (...args: Array<string | number>) => Promise<number>;

/**
 * Both windows' takes as one script: one command and one round trip per call, where the limiters take four (the
 * pauses read, then each window), and nothing to give back when one window refuses. A call that the credit covers
 * makes no round trip, and weight given back becomes credit, which goes back to Redis with giveBackHeld.
 */
function redisStore(redis: Redis, keys: { ip: string; uid: string; account: string }, ip: BudgetWindow, uid: BudgetWindow, credit: WeightCredit): WeightStore {
  if (!('weexTakeBoth' in redis)) redis.defineCommand('weexTakeBoth', { numberOfKeys: 7, lua: TAKE_BOTH_LUA });
  if (!('weexGiveBack' in redis)) redis.defineCommand('weexGiveBack', { numberOfKeys: 2, lua: GIVE_BACK_LUA });
  const command = (redis as unknown as { weexTakeBoth: TakeBothCommand }).weexTakeBoth.bind(redis);
  const giveBackCommand = (redis as unknown as { weexGiveBack: GiveBackCommand }).weexGiveBack.bind(redis);
  const reserve = Math.ceil(ip.limit / RESERVE_DIVISOR);
  const horizon = Math.ceil(FAIR_SHARE_KEPT_MS / ip.windowMs);
  const releaseMs = Math.floor(ip.windowMs / RELEASE_DIVISOR);
  const current = () => `${ip.slot().key}:${uid.slot().key}`;
  const take = async (weight: Weight): Promise<Take> => {
    const ipSlot = ip.slot();
    const uidSlot = uid.slot();
    // Close to a window boundary nothing is taken (as BudgetWindow.take): wait for the guard, then ask.
    const guard = Math.max(weight.ip > 0 ? ipSlot.guardWait : 0, weight.uid > 0 ? uidSlot.guardWait : 0);
    if (guard > 0) return { wait: guard };
    const windows = `${ipSlot.key}:${uidSlot.key}`;
    if (credit.take(windows, weight)) return { wait: 0, windows };
    const lease = credit.ask(weight, { ip: ip.limit, uid: uid.limit });
    let answer: [number, number, number, number] | undefined;
    try {
      answer = await command(
        `${keys.ip}:${PAUSE_KEY}`,
        `${keys.uid}:${PAUSE_KEY}`,
        `${keys.ip}:${ipSlot.key}`,
        `${keys.uid}:${uidSlot.key}`,
        `${keys.ip}:${ipSlot.key}:accounts`,
        `${keys.ip}:w${ipSlot.index - 1}:accounts`,
        `${keys.ip}:accounts`,
        weight.ip,
        weight.uid,
        ip.limit,
        uid.limit,
        lifetimeMs(ip.windowMs),
        lifetimeMs(uid.windowMs),
        lease.ip,
        lease.uid,
        keys.account,
        reserve,
        ipSlot.index,
        horizon,
        ipSlot.msLeft <= releaseMs ? 1 : 0,
      );
    } finally {
      credit.settle(lease, windows, answer?.[3] === 1);
    }
    const [pausedMs, ipRefused, uidRefused] = answer;
    if (pausedMs === 0 && !ipRefused && !uidRefused) return { wait: 0, windows };
    if (pausedMs === 0 && credit.take(windows, weight)) return { wait: 0, windows }; // a lease landed meanwhile
    // Weight held for other accounts is released in the window's last part; a full window frees up in the next.
    const ipWait = ipRefused === 2 ? ipSlot.msLeft - releaseMs : ipRefused ? ipSlot.msLeft + ip.clock.guardMs : 0;
    return { wait: Math.max(pausedMs, ipWait, uidRefused ? uidSlot.msLeft + uid.clock.guardMs : 0) };
  };
  const giveBack = async (weight: Weight, windows: string) => {
    if (windows === current()) credit.refund(windows, weight);
  };
  // Weight a process holds and leaves unspent is lost to the others until its window ends: a drainer that moves
  // between worker processes would strand a lease in each.
  const giveBackHeld = async () => {
    const windows = current();
    const held = credit.takeAll(windows);
    if (held.ip === 0 && held.uid === 0) return;
    const [ipKey, uidKey] = windows.split(':');
    await giveBackCommand(`${keys.ip}:${ipKey}`, `${keys.uid}:${uidKey}`, held.ip, held.uid);
  };
  return { take, giveBack, giveBackHeld };
}
