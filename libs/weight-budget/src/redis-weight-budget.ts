import { createHash } from 'node:crypto';
import { BUDGET_LUA } from './budget.lua.js';
import { type BudgetStore, budgetWindows, type BudgetWindow, LinedWeightBudget } from './lined-budget.js';
import type { BudgetLimits, Weight, WeightBudget } from './weight-budget.js';

/** The few commands the budget needs, as ioredis has them: the library stays free of a Redis client. */
export interface BudgetRedis {
  evalsha(sha: string, numKeys: number, ...args: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: string[]): Promise<unknown>;
  hgetall(key: string): Promise<Record<string, string>>;
  pttl(key: string): Promise<number>;
}

// `prefix`: the deployment's namespace (default `gateway`); `apiKey`: the account's, of which only a hash is stored;
// `ipName`: the IP budget's name, shared by every account calling from that IP (default `default`).
export type RedisWeightBudgetOptions = { redis: BudgetRedis; prefix?: string; apiKey: string; ipName?: string; limits: BudgetLimits };

/** One budget's place in the script's request: its limit, the bucket of now, and its span (SlidingSpan). */
export type ScriptWindow = { limit: number; bucket: number; buckets: number; bucketMs: number };

/** What the script is asked: typed here, one JSON argument there. */
export type ScriptRequest =
  | { kind: 'take'; account: string; weight: Weight; now: number; reserve: number; ip: ScriptWindow; uid: ScriptWindow }
  | { kind: 'giveBack'; account: string; weight: Weight; buckets: Weight }
  | { kind: 'pause'; ms: Weight };

/** The first 16 hex digits of SHA-256 of the API key: tells accounts apart without storing the key. */
export function apiKeyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}

/** The script's KEYS (both pauses, the IP weight by account and bucket, the UID and the IP weight by bucket) and ARGV. */
export function scriptCall({ ip, uid }: { ip: string; uid: string }, request: ScriptRequest): string[] {
  return [`${ip}:pause`, `${uid}:pause`, `${ip}:by-account`, `${uid}:spent`, `${ip}:spent`, JSON.stringify(request)];
}

/** The script's answer: how long to wait (0: taken). Anything else is a script out of step with this code. */
export function parseAnswer(raw: unknown): number {
  const wait = typeof raw === 'string' ? (JSON.parse(raw) as { wait?: unknown }).wait : undefined;
  if (typeof wait !== 'number' || !(wait >= 0)) throw new Error(`unexpected weight budget answer: ${String(raw)}`);
  return wait;
}

const SCRIPT_SHA = createHash('sha1').update(BUDGET_LUA).digest('hex');

// Shared by every process of a deployment that uses the same account and prefix, the IP budget fairly between the
// accounts (BUDGET_LUA, README). One script call, one round trip, per take.
export function createRedisWeightBudget(options: RedisWeightBudgetOptions): WeightBudget {
  const { limits, redis } = options;
  const windows = budgetWindows(limits);
  const base = `${options.prefix ?? 'gateway'}:weex-budget`;
  const keys = { ip: `${base}:ip:${options.ipName ?? 'default'}`, uid: `${base}:uid:${apiKeyHash(options.apiKey)}` };
  const account = apiKeyHash(options.apiKey);
  // The IP room kept free for an account that waits: its heaviest call fits.
  const reserve = limits.heaviest?.ip ?? 1;
  const run = async (request: ScriptRequest) => {
    const args = scriptCall(keys, request);
    // The script is loaded once per Redis (EVAL caches it); EVALSHA sends its hash only.
    const raw = await redis.evalsha(SCRIPT_SHA, 5, ...args).catch((error: unknown) => {
      if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      return redis.eval(BUDGET_LUA, 5, ...args);
    });
    return parseAnswer(raw);
  };
  const window = ({ limit, span }: BudgetWindow, bucket: number) => ({ limit, bucket, buckets: span.buckets, bucketMs: span.bucketMs });
  // A hash's weight by bucket, every account's (a field `<account>|<bucket>` or `<bucket>`).
  const stored = async (key: string, hash: string) => {
    const [fields, pausedMs] = await Promise.all([redis.hgetall(`${key}:${hash}`), redis.pttl(`${key}:pause`)]);
    return { spent: Object.entries(fields).map(([f, w]) => [Number(f.slice(f.indexOf('|') + 1)), Number(w)] as const), pausedMs: Math.max(0, pausedMs) };
  };
  const store: BudgetStore = {
    take: (weight, buckets, now) =>
      run({ kind: 'take', account, weight, now: Math.floor(now), reserve, ip: window(windows.ip, buckets.ip), uid: window(windows.uid, buckets.uid) }),
    giveBack: async (weight, buckets) => void (await run({ kind: 'giveBack', account, weight, buckets })),
    pause: async (ms) => void (await run({ kind: 'pause', ms })),
    read: async () => Promise.all([stored(keys.ip, 'by-account'), stored(keys.uid, 'spent')]).then(([ip, uid]) => ({ ip, uid })),
  };
  return new LinedWeightBudget(windows, store);
}
