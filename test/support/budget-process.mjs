// One process of a deployment sharing an account's weight budget in Redis, for test/weight-budget.e2e-spec.ts.
// It uses the built budget module (the same code the gateway runs), tries `calls` orderInfo acquisitions at once
// when told to go, and reports how many it was granted before its deadline.
import { Redis } from 'ioredis';

const options = JSON.parse(process.argv[2]);
const { createRedisWeightBudget } = await import(options.budgetModule);
const redis = new Redis(options.redisUrl);
const budget = createRedisWeightBudget({
  redis,
  prefix: options.prefix,
  apiKey: options.apiKey,
  limits: { ...options.limits, now: () => options.now },
});

process.once('message', async () => {
  const signal = AbortSignal.timeout(options.deadlineMs);
  const results = await Promise.allSettled(Array.from({ length: options.calls }, () => budget.acquire('orderInfo', { ip: 2, uid: 3 }, { signal })));
  process.send({ granted: results.filter((r) => r.status === 'fulfilled').length }, () => {
    redis.disconnect();
    process.disconnect();
  });
});
await redis.ping();
process.send({ ready: true });
