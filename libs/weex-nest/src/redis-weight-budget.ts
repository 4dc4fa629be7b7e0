import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import {
  assertLimitsFit,
  type BudgetLimit,
  type BudgetLimits,
  BudgetWindow,
  HEAVIEST_WEIGHT,
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
 * each followed by `:spent` (a hash: the weight taken by bucket, SlidingSpan) or `:pause`; the IP weight by account
 * (by apiKeyHash) and bucket is `:by-account`, the last bucket each account took IP weight in (or was refused it
 * within its fair share) `:accounts`, and the accounts whose caller waits for IP weight, with what it asks, `:waiting`.
 * Every process using the same prefix and account shares them.
 */
export function budgetKeys(options: Pick<RedisWeightBudgetOptions, 'prefix' | 'apiKey' | 'ipName'>): { ip: string; uid: string } {
  const base = `${options.prefix ?? 'gateway'}:weex-budget`;
  return { ip: `${base}:ip:${options.ipName ?? 'default'}`, uid: `${base}:uid:${apiKeyHash(options.apiKey)}` };
}

/** A budget's weight by bucket, as the take script leaves it. */
async function readSpent(redis: Redis, key: string): Promise<Map<number, number>> {
  return new Map(Object.entries(await redis.hgetall(key)).map(([bucket, weight]) => [Number(bucket), Number(weight)]));
}

function redisWindow(redis: Redis, keyPrefix: string, { limit, windowMs }: BudgetLimit, limits: BudgetLimits): BudgetWindow {
  // Pauses only: RateLimiterRedis keeps a key at least a second.
  const pauses = new RateLimiterRedis({ storeClient: redis, keyPrefix, points: limit, duration: Math.max(1000, windowMs) / 1000 });
  return new BudgetWindow(pauses, limit, windowMs, windowClock(limits, windowMs), 'redis', () => readSpent(redis, `${keyPrefix}:spent`));
}

/** The least IP weight an account's share holds for it: a fiftieth of the limit, and the heaviest call at least. */
const RESERVE_DIVISOR = 50;
/** How long an account that took IP weight keeps a fair share of the IP budget (and, quiet, its reserve). */
const FAIR_SHARE_KEPT_MS = 300_000;
/** The most the reserves of quiet accounts hold together: a tenth of the limit (one reserve at least). */
const QUIET_DIVISOR = 10;

/**
 * A weight budget in Redis, shared by every process of a deployment that uses the same account and prefix.
 * A weight is taken only if it fits (atomically, in one script), so the processes together never exceed a limit
 * within any window of the exchange, fixed or sliding (SlidingSpan), and the IP budget is shared fairly between the
 * deployment's accounts (TAKE_BOTH_LUA). While a span has room, a take also leases weight for later calls
 * (WeightCredit).
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

type TakeBothCommand = (...args: Array<string | number>) => Promise<[number, number, number, number, number, number]>;
type GiveBackCommand = (...args: Array<string | number>) => Promise<number>;

/**
 * Both budgets' takes as one script: one command and one round trip per call, and nothing to give back when one
 * budget refuses. A call that the credit covers makes no round trip, and weight given back becomes credit, which goes
 * back to Redis with giveBackHeld.
 */
function redisStore(redis: Redis, keys: { ip: string; uid: string; account: string }, ip: BudgetWindow, uid: BudgetWindow, credit: WeightCredit): WeightStore {
  if (!('weexTakeBoth' in redis)) redis.defineCommand('weexTakeBoth', { numberOfKeys: 7, lua: TAKE_BOTH_LUA });
  if (!('weexGiveBack' in redis)) redis.defineCommand('weexGiveBack', { numberOfKeys: 3, lua: GIVE_BACK_LUA });
  const command = (redis as unknown as { weexTakeBoth: TakeBothCommand }).weexTakeBoth.bind(redis);
  const giveBackCommand = (redis as unknown as { weexGiveBack: GiveBackCommand }).weexGiveBack.bind(redis);
  const reserve = Math.max(Math.ceil(ip.limit / RESERVE_DIVISOR), HEAVIEST_WEIGHT.ip);
  // Names this process's waiting caller of the account in the script's marks.
  const waiter = randomBytes(6).toString('hex');
  const horizon = Math.ceil(FAIR_SHARE_KEPT_MS / ip.span.bucketMs);
  const quietCap = Math.max(Math.ceil(ip.limit / QUIET_DIVISOR), reserve);
  const current = () => `${ip.slot().key}:${uid.slot().key}`;
  const giveBackTo = async (windows: string, weight: Weight) => {
    const [ipBucket, uidBucket] = windows.split(':').map((key) => key.slice(1));
    await giveBackCommand(`${keys.ip}:spent`, `${keys.uid}:spent`, `${keys.ip}:by-account`, keys.account, ipBucket, uidBucket, weight.ip, weight.uid);
  };
  const take = async (weight: Weight, maxWaitMs = Infinity): Promise<Take> => {
    const now = Math.floor(ip.clock.now());
    const ipSlot = ip.slot();
    const uidSlot = uid.slot();
    // Credit belongs to its bucket: weight is never spent later than the bucket it was counted in.
    const windows = `${ipSlot.key}:${uidSlot.key}`;
    if (credit.take(windows, weight)) return { wait: 0, windows };
    // Lapsed credit goes back with this take: no round trip of its own.
    const lapsed = credit.lapsed(windows) ?? { window: 'b0:b0', weight: { ip: 0, uid: 0 } };
    const lapsedBuckets = lapsed.window.split(':').map((key) => key.slice(1));
    const lease = credit.ask(weight, { ip: ip.limit, uid: uid.limit });
    let answer: [number, number, number, number, number, number] | undefined;
    try {
      answer = await command(
        `${keys.ip}:${PAUSE_KEY}`,
        `${keys.uid}:${PAUSE_KEY}`,
        `${keys.ip}:spent`,
        `${keys.uid}:spent`,
        `${keys.ip}:by-account`,
        `${keys.ip}:accounts`,
        `${keys.ip}:waiting`,
        weight.ip,
        weight.uid,
        ip.limit,
        uid.limit,
        ipSlot.bucket,
        uidSlot.bucket,
        ip.span.buckets,
        uid.span.buckets,
        ip.span.bucketMs,
        uid.span.bucketMs,
        now,
        lease.ip,
        lease.uid,
        keys.account,
        reserve,
        horizon,
        quietCap,
        Number.isFinite(maxWaitMs) ? Math.max(0, Math.floor(maxWaitMs)) : -1,
        ...lapsedBuckets,
        lapsed.weight.ip,
        lapsed.weight.uid,
        waiter,
      );
    } finally {
      credit.settle(lease, windows, answer?.[3] === 1);
    }
    const [pausedMs, ipRefused, uidRefused, , ipWait, uidWait] = answer;
    if (pausedMs === 0 && !ipRefused && !uidRefused) return { wait: 0, windows };
    if (pausedMs === 0 && credit.take(windows, weight)) return { wait: 0, windows }; // a lease landed meanwhile
    // A full span, or the rest of it held for other accounts, frees up as its oldest buckets leave.
    return { wait: Math.max(pausedMs, ipWait, uidWait, 1) };
  };
  // Within its bucket, weight given back is credit for the next calls; later, it goes back to its bucket in Redis,
  // where it would otherwise count against the span for a whole window.
  const giveBack = async (weight: Weight, windows: string) => {
    if (windows === current()) credit.refund(windows, weight);
    else await giveBackTo(windows, weight);
  };
  // Weight a process holds and leaves unspent is lost to the others until it leaves the span: a drainer that moves
  // between worker processes would strand a lease in each.
  const giveBackHeld = async () => {
    const held = credit.takeAll();
    if (held.weight.ip !== 0 || held.weight.uid !== 0) await giveBackTo(held.window, held.weight);
  };
  return { take, giveBack, giveBackHeld };
}
