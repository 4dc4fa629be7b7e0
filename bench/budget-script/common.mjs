// Shared by the weight budget's script timing (scenario budget-script, compare.mjs) and its differential test
// (diff.mjs): a private redis-server, the script's text, and takes as a steady drain makes them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { Cleanup } from '../support/gateway.mjs';
import { startPrivateRedis } from '../support/private-redis.mjs';

/** The Lua text of BUDGET_LUA in a budget.lua.ts (or its compiled .js) file: `git show REV:path > old.lua.ts` gives a build to compare. */
export function luaOf(file) {
  const text = readFileSync(file, 'utf8');
  const m = /BUDGET_LUA = `([\s\S]*?)`;/.exec(text);
  if (!m) throw new Error(`no BUDGET_LUA in ${file}`);
  return m[1];
}

/** A redis-server of our own (no persistence): its stats are ours alone. Call stop() when done. */
export async function privateRedis() {
  const cleanup = new Cleanup();
  const server = await startPrivateRedis(cleanup);
  const redis = new Redis(server.url, { maxRetriesPerRequest: 0 });
  return {
    redis,
    pid: server.pid,
    stop: async () => {
      redis.disconnect();
      await cleanup.run();
    },
  };
}

/** KEYS as scriptCall names them. */
export const keysOf = (prefix, account) => {
  const ip = `${prefix}:weex-budget:ip:default`;
  const uid = `${prefix}:weex-budget:uid:${account}`;
  return [`${ip}:pause`, `${uid}:pause`, `${ip}:by-account`, `${uid}:spent`, `${ip}:spent`];
};

/** SlidingSpan's bucket size and count. */
export const spanOf = (windowMs, guardMs = Math.min(250, Math.floor(windowMs / 10))) => {
  const bucketMs = Math.max(1, Math.floor(windowMs / 200));
  return { bucketMs, buckets: Math.ceil((windowMs + guardMs) / bucketMs) + 1 };
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/**
 * Redis CPU per call of each script (`[{ name, lua }]`), on a private redis-server. Each gets its own keys, filled as a
 * steady drain fills them: takes of weight 1/1 at `rate` per second of a simulated clock, round robin over `accounts`,
 * for two spans of 10 s windows (206 buckets of 50 ms), 1 in 50 followed by its give-back. Then `batches` of `batch`
 * more such calls, alternating the scripts batch by batch. Per batch: INFO commandstats' usec_per_call, and the
 * server's main thread's time on a CPU per call (/proc schedstat: unlike commandstats' wall clock, not inflated while
 * another process has the core). Medians over the batches.
 */
export async function measureTakes(scripts, { accounts: accountCount = 1, batches = 20, batch: batchSize = 500, limit = 10_000_000, rate = 500 } = {}) {
  const accounts = Array.from({ length: accountCount }, (_, i) => createHash('sha256').update(`acct${i}`).digest('hex').slice(0, 16));
  const { bucketMs, buckets } = spanOf(10_000);
  const server = await privateRedis();
  const { redis } = server;
  const onCpu = () => Number(readFileSync(`/proc/${server.pid}/task/${server.pid}/schedstat`, 'utf8').split(' ')[0]);
  try {
    const builds = [];
    for (const [i, { name, lua }] of scripts.entries()) {
      const build = { name, sha: await redis.script('LOAD', lua), prefix: `budget-bench:${i}`, now: 1_800_000_000_000, call: 0, usec: [], cpu: [], waits: 0 };
      build.step = async () => {
        const account = accounts[build.call++ % accounts.length];
        build.now += 1000 / rate;
        const t = Math.floor(build.now);
        const w = { limit, bucket: Math.floor(t / bucketMs), buckets, bucketMs };
        const run = async (request) => JSON.parse(await redis.evalsha(build.sha, 5, ...keysOf(build.prefix, account), JSON.stringify(request))).wait;
        const wait = await run({ kind: 'take', account, weight: { ip: 1, uid: 1 }, now: t, reserve: 10, ip: w, uid: w });
        if (wait > 0) build.waits++;
        else if (build.call % 50 === 0) await run({ kind: 'giveBack', account, weight: { ip: 1, uid: 1 }, buckets: { ip: w.bucket, uid: w.bucket } });
      };
      for (let n = Math.ceil((2 * buckets * bucketMs * rate) / 1000); n > 0; n--) await build.step();
      builds.push(build);
    }
    for (let b = 0; b < batches; b++)
      for (const build of builds) {
        await redis.config('RESETSTAT');
        const cpuBefore = onCpu();
        for (let i = 0; i < batchSize; i++) await build.step();
        const cpuUs = (onCpu() - cpuBefore) / 1000;
        const [, calls, usecPerCall] = /cmdstat_evalsha:calls=(\d+),usec=\d+,usec_per_call=([\d.]+)/.exec(await redis.info('commandstats'));
        build.usec.push(Number(usecPerCall));
        build.cpu.push(cpuUs / Number(calls));
      }
    const results = [];
    for (const b of builds) {
      const [, , ip, uid] = keysOf(b.prefix, accounts[0]);
      results.push({
        name: b.name,
        usec: median(b.usec),
        cpu: median(b.cpu),
        fields: { ip: await redis.hlen(ip), uid: await redis.hlen(uid) },
        waits: b.waits,
      });
    }
    return results;
  } finally {
    await server.stop();
  }
}
