// Differential test of two builds of the weight budget's script: the same random operations (takes by several
// accounts and processes with skewed clocks, give-backs, foreign fields) on two key prefixes, one per build; every
// answer and, after every operation, every hash must be equal, and the TTLs within 200 ms.
// node bench/budget-script/diff.mjs /tmp/before.lua.ts libs/weight-budget/src/budget.lua.ts [--trials=200] [--seed=1] [--ops=400]
import { createHash } from 'node:crypto';
import { keysOf, luaOf, privateRedis, spanOf } from './common.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('=')),
);
const [fileA, fileB] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const trials = Number(args.trials ?? 200);
let seed = Number(args.seed ?? 1);
const rand = () => {
  // mulberry32
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

const server = await privateRedis();
const { redis } = server;
let ops = 0;
let waits = 0;
let grants = 0;
let errors = 0;
try {
  const shaA = await redis.script('LOAD', luaOf(fileA));
  const shaB = await redis.script('LOAD', luaOf(fileB));
  for (let trial = 0; trial < trials; trial++) {
    await redis.flushall();
    const windowMs = pick([200, 1_000, 3_000, 10_000]);
    const ipSpan = spanOf(windowMs);
    const uidWindowMs = rand() < 0.8 ? windowMs : pick([500, 2_000, 10_000]);
    const uidSpan = spanOf(uidWindowMs);
    const ipLimit = int(5, 300);
    const uidLimit = int(5, 300);
    const reserve = pick([1, 10, 15]);
    const accounts = Array.from({ length: int(1, 4) }, (_, i) => createHash('sha256').update(`t${trial}a${i}`).digest('hex').slice(0, 16));
    const spanMs = ipSpan.buckets * ipSpan.bucketMs;
    const skews = Array.from({ length: int(1, 3) }, () => (rand() < 0.5 ? 0 : int(-1.5 * spanMs, 1.5 * spanMs)));
    const rate = pick([0.2, 1, 5, 50]); // mean ms between operations, in buckets
    let clock = 1_800_000_000_000 + int(0, 1_000_000);
    const granted = [];
    const retries = []; // takes refused, due back at `at` (base clock): retried then, as LinedWeightBudget does
    const state = async (prefix, account) => {
      const [, , ip, uid, ipSpent] = keysOf(prefix, account);
      const out = {};
      for (const [name, key] of [
        ['ip', ip],
        ['uid', uid],
        ['ipSpent', ipSpent],
      ]) {
        out[name] = await redis.hgetall(key);
        out[`${name}Ttl`] = await redis.pttl(key);
      }
      return out;
    };
    const both = async (request, account) => {
      // An error (a foreign non-integer where HINCRBY adds) must be the same error: compared without the script's SHA.
      const call = (sha, prefix) =>
        redis.evalsha(sha, 5, ...keysOf(prefix, account), JSON.stringify(request)).catch(
          (e) =>
            `error: ${String(e.message)
              .replace(sha, 'SHA')
              .replace(/user_script:\d+/g, 'user_script')}`,
        );
      const a = await call(shaA, 'A');
      const b = await call(shaB, 'B');
      if (String(a).startsWith('error')) errors++;
      ops++;
      if (a !== b) throw new Error(`answers differ: ${a} vs ${b} for ${JSON.stringify(request)} (trial ${trial})`);
      for (const acct of accounts) {
        const [sa, sb] = [await state('A', acct), await state('B', acct)];
        for (const k of ['ip', 'uid', 'ipSpent'])
          if (JSON.stringify(Object.entries(sa[k]).sort()) !== JSON.stringify(Object.entries(sb[k]).sort()))
            throw new Error(`${k} differs after ${JSON.stringify(request)} (trial ${trial}):\n${JSON.stringify(sa[k])}\n${JSON.stringify(sb[k])}`);
        for (const k of ['ipTtl', 'uidTtl', 'ipSpentTtl'])
          if (Math.abs(sa[k] - sb[k]) > 200 || sa[k] < 0 !== sb[k] < 0) throw new Error(`${k} differs: ${sa[k]} vs ${sb[k]} (trial ${trial})`);
      }
      return String(a).startsWith('error') ? -1 : JSON.parse(a).wait;
    };
    const foreign = async () => {
      const account = pick(accounts);
      const [, , ip, uid, ipSpent] = keysOf('X', account);
      const bucket = Math.floor(clock / ipSpan.bucketMs) + int(-3 * ipSpan.buckets, ipSpan.buckets);
      const key = pick([ip, ip, uid, ipSpent]);
      const field = pick([
        `${account}|${bucket}`,
        `${bucket}`,
        'legacy',
        `${account}|x`,
        `|${bucket}`,
        `${account}|${bucket}|1`,
        `${account}|${bucket}.5`,
        ` ${bucket}`,
        `${account}|1e3`,
        `${account}|0x10`,
        `${account}|`,
        `${bucket}`,
        `${pick(accounts)}|${bucket}`,
      ]);
      const value = pick(['1', '0', '-3', '2.5', 'x', '7', '1e2', ' 4', 'inf', 'nan', '0x5', '12']);
      for (const p of ['A', 'B']) await redis.hset(key.replace(/^X:/, `${p}:`), field, value);
    };
    for (let i = 0, n = int(50, Number(args.ops ?? 400)); i < n; i++) {
      clock += Math.round(rand() * rate * 2 * ipSpan.bucketMs);
      if (rand() < 0.02) clock += int(0, 3 * spanMs);
      const r = rand();
      let retry;
      if (r > 0.7 && retries.length > 0) {
        retry = retries.shift();
        clock = Math.max(clock, retry.at + pick([0, 0, 1, 5]));
      }
      if (retry) {
        // falls through to a take by that account
      } else if (r < 0.04) await foreign();
      else if (r < 0.14 && granted.length > 0) {
        const g = granted.splice(int(0, granted.length - 1), 1)[0];
        await both({ kind: 'giveBack', account: g.account, weight: g.weight, buckets: g.buckets }, g.account);
      } else {
        const account = retry?.account ?? pick(accounts);
        const skew = retry?.skew ?? pick(skews);
        const now = clock + skew;
        const weight = pick([
          { ip: 1, uid: 1 },
          { ip: 2, uid: 3 },
          { ip: 10, uid: 15 },
          { ip: 1, uid: 0 },
          { ip: 0, uid: 1 },
          { ip: int(0, 12), uid: int(0, 20) },
        ]);
        const buckets = { ip: Math.floor(now / ipSpan.bucketMs), uid: Math.floor(now / uidSpan.bucketMs) };
        const request = {
          kind: 'take',
          account,
          weight,
          now,
          reserve,
          ip: { limit: ipLimit, bucket: buckets.ip, ...ipSpan },
          uid: { limit: uidLimit, bucket: buckets.uid, ...uidSpan },
        };
        const wait = await both(request, account);
        if (wait < 0) {
          // the same error from both
        } else if (wait === 0) {
          grants++;
          if (rand() < 0.3) granted.push({ account, weight, buckets });
        } else {
          waits++;
          if (rand() < 0.7) retries.push({ account, skew, at: now - skew + wait });
        }
      }
    }
  }
  console.log(`same: ${trials} trials, ${ops} operations (${grants} grants, ${waits} waits, ${errors} errors alike)`);
  await redis.flushall();
} finally {
  await server.stop();
}
