import { Queue } from 'bullmq';
import { DURATION_S, INGEST_CONNECTIONS, TARGETS } from '../settings.mjs';
import { mb } from '../support/format.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi, startSimulator, startWorker } from '../support/gateway.mjs';
import { cannon, loadHeading, otherStatuses } from '../support/load.mjs';
import { logText } from '../support/payload.mjs';
import { poll, RssSampler, sleep } from '../support/processes.mjs';
import { redisClient, UPLOAD_QUEUE, withClient } from '../support/services.mjs';
import { mixedBody, seedChains } from '../support/audit-chains.mjs';

const { applyMigrations } = await import('../../dist/libs/database/src/index.js');

/** Logs already in the account's chains when the load starts (BENCH_MEMORY_CHAIN, default 100,000), for the audit check. */
const CHAIN = Number(process.env.BENCH_MEMORY_CHAIN ?? 100_000);

export const title = 'API and worker RSS, at rest and under the load of scenario 2 (worker uploading and checking the audit chains meanwhile)';

const HUGE = 1_000_000_000;

/**
 * API and worker as two processes, as in production, with the worker draining to the simulator while scenario 2's
 * load runs, so that both are measured busy. Budgets are lifted so the worker runs flat out. The account's chains
 * already hold CHAIN logs with their receipts (some of 256 KB), and the worker checks them every second at no limit of
 * links per minute (a full run each time), so its periodic audit check runs over a long chain throughout.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const sim = await startSimulator(cleanup);
    await sim.control('PUT', '/__sim/budgets', { ipLimit: HUGE, uidLimit: HUGE });
    const gateway = await gatewayEnvironment(cleanup, {
      ...sim.weexEnv,
      WEEX_IP_WEIGHT_LIMIT: String(HUGE),
      WEEX_UID_WEIGHT_LIMIT: String(HUGE),
      AUDIT_CHECK_INTERVAL_MS: '1000',
      AUDIT_CHECK_LINKS_PER_MIN: String(HUGE),
    });
    await withClient(gateway.env.DATABASE_URL, async (client) => {
      await applyMigrations(client);
      await seedChains(client, { logs: CHAIN, body: mixedBody() });
    });
    const api = await startApi(cleanup, gateway.env);
    const worker = startWorker(cleanup, gateway.env);
    await waitForWorker(gateway.prefix);
    const apiRss = new RssSampler(api.pid);
    const workerRss = new RssSampler(worker.pid);
    cleanup.defer(async () => (apiRss.stop(), workerRss.stop()));
    await sleep(3_000); // at rest: both started, nothing to do
    const rest = { api: apiRss.at(), worker: workerRss.at() };
    const started = Date.now();
    const load = await cannon({
      url: `${api.url}/v1/ai-logs`,
      headers: AUTH,
      body: logText(),
      connections: INGEST_CONNECTIONS,
      durationS: DURATION_S,
      expectStatus: 202,
    });
    const peak = { api: apiRss.maxBetween(started), worker: workerRss.maxBetween(started) };
    const high = { api: apiRss.highWaterMb(), worker: workerRss.highWaterMb() };
    const { uploads } = await sim.control('GET', '/__sim/stats');
    return {
      throughput: load.perSecond,
      unit: 'logs/s',
      p50: load.p50,
      p99: load.p99,
      rssMb: peak.api,
      summary: `API ${mb(rest.api)} → ${mb(peak.api)}; worker ${mb(rest.worker)} → ${mb(peak.worker)}`,
      targets: [
        { text: `API ≤ ${TARGETS.apiRssMb} MB`, pass: peak.api <= TARGETS.apiRssMb },
        { text: `worker ≤ ${TARGETS.workerRssMb} MB`, pass: peak.worker <= TARGETS.workerRssMb },
      ],
      details: [
        `API RSS: ${mb(rest.api)} at rest, ${mb(peak.api)} peak under load (kernel high-water mark ${mb(high.api)})`,
        `worker RSS: ${mb(rest.worker)} at rest, ${mb(peak.worker)} peak under load (kernel high-water mark ${mb(high.worker)})`,
        `audit check: the worker checked the account's chains every second, over the ${CHAIN.toLocaleString('en')} logs seeded before the load and those it added`,
        `load: ${loadHeading(load, 202)}: ${load.ok} × 202 ${otherStatuses(load, 202)}; the worker uploaded ${uploads} logs meanwhile ` +
          '(API and worker share the 2 cores here, so this throughput is not the ingest figure: see scenario 2)',
      ],
    };
  } finally {
    await cleanup.run();
  }
}

/** The worker has no port: it is ready when BullMQ counts it among the queue's workers. */
async function waitForWorker(prefix) {
  const redis = redisClient();
  const queue = new Queue(UPLOAD_QUEUE, { connection: redis, prefix });
  try {
    await poll('the worker to connect to its queue', 60_000, async () => ((await queue.getWorkersCount()) > 0 ? true : undefined));
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
