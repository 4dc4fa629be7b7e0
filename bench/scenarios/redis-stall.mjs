import { STALL } from '../settings.mjs';
import { ms } from '../support/format.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi, startSimulator, startWorker } from '../support/gateway.mjs';
import { logText } from '../support/payload.mjs';
import { poll, sleep } from '../support/processes.mjs';
import { startPrivateRedis } from '../support/private-redis.mjs';

export const title = `POST /v1/ai-logs through a ${STALL.stallS} s Redis stall (SIGSTOP), API and worker processes`;

/** An answer later than this counts as none, as an agent with an 8 s timeout sees it (issue 15). */
const GIVE_UP_MS = 8_000;

/**
 * The production layout (API and worker processes, PostgreSQL, the simulator) on a Redis of the scenario's own, under
 * an open loop of STALL.rate single-log requests a second, each a log of its own. Redis is SIGSTOPped (connected but
 * silent) for STALL.stallS, then SIGCONTed; the load goes on STALL.afterS, then the worker drains. The budgets are
 * set far above the load, so that the drain measures recovery rather than the exchange's pace.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const redis = await startPrivateRedis(cleanup);
    const sim = await startSimulator(cleanup);
    await sim.control('PUT', '/__sim/budgets', { ipLimit: 20_000, uidLimit: 20_000 });
    const gateway = await gatewayEnvironment(cleanup, {
      ...sim.weexEnv,
      REDIS_URL: redis.url,
      WEEX_IP_WEIGHT_LIMIT: '20000',
      WEEX_UID_WEIGHT_LIMIT: '20000',
      EVIDENCE_SYNC_INTERVAL_MS: '0',
      // The per-agent limit's default, as deployed, which this load never reaches.
      AGENT_RATE_LIMIT_PER_MIN: '6000',
    });
    const api = await startApi(cleanup, gateway.env);
    const worker = startWorker(cleanup, gateway.env);

    const requests = [];
    const marks = {};
    const load = openLoop(api.url, requests);
    await sleep(STALL.beforeS * 1000);
    marks.stall = Date.now();
    redis.pause();
    await sleep(STALL.stallS * 1000);
    marks.resume = Date.now();
    redis.resume();
    await sleep(STALL.afterS * 1000);
    await load.stop();
    await Promise.all(requests.map((r) => r.done));

    const accepted = requests.filter((r) => r.status === 202).length;
    const drained = await poll('every log uploaded', 300_000, async () => {
      if (!worker.running) throw new Error(`worker exited:\n${worker.output}`);
      const { rows } = await gateway.database.query('SELECT status::text, count(*)::int AS n FROM ai_logs GROUP BY status');
      const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]));
      const total = rows.reduce((sum, r) => sum + r.n, 0);
      return total >= accepted && byStatus.uploaded === total ? { at: Date.now(), byStatus, total } : (await sleep(200), undefined);
    });
    const { duplicates } = await sim.control('GET', '/__sim/uploads/duplicates');
    const during = requests.filter((r) => r.sentAt >= marks.stall && r.sentAt < marks.resume);
    const stats = latencyStats(during);
    const all = latencyStats(requests);
    const unanswered = during.filter((r) => !(r.latencyMs <= GIVE_UP_MS));
    const answeredBeforeResume = during.filter((r) => r.answeredAt < marks.resume).length;
    const uploadedAfter = drained.byStatus.uploaded;
    return {
      throughput: during.length / STALL.stallS,
      unit: 'req/s',
      p50: stats.p50,
      p99: stats.p99,
      rssMb: NaN,
      rank: stats.p99,
      rankUnit: 'ms p99 during the stall',
      summary: `during the stall: ${during.length} requests, ${during.length - unanswered.length} answered, max ${ms(stats.max)}; drained ${((drained.at - marks.resume) / 1000).toFixed(1)} s after SIGCONT`,
      targets: [
        { text: 'every request during the stall answered 202', pass: unanswered.length === 0 && during.every((r) => r.status === 202) },
        { text: 'p99 ≤ 1 s', pass: stats.p99 <= 1000 },
        { text: 'every log uploaded after', pass: uploadedAfter === drained.total && drained.total === accepted },
      ],
      details: [
        `${STALL.rate} single-log requests/s for ${STALL.beforeS} s, then Redis SIGSTOPped for ${STALL.stallS} s, then SIGCONTed and ${STALL.afterS} s more`,
        `during the stall: ${during.length} requests sent, ${during.length - unanswered.length} answered within ${GIVE_UP_MS / 1000} s (${answeredBeforeResume} before Redis resumed), ` +
          `statuses ${JSON.stringify(countBy(during, (r) => r.status ?? r.error))}; p50 ${ms(stats.p50)}, p99 ${ms(stats.p99)}, max ${ms(stats.max)}`,
        `whole run: ${requests.length} requests, statuses ${JSON.stringify(countBy(requests, (r) => r.status ?? r.error))}; p50 ${ms(all.p50)}, p99 ${ms(all.p99)}, max ${ms(all.max)}`,
        `rows in ai_logs: ${drained.total} for ${accepted} answers 202; by status at the end ${JSON.stringify(drained.byStatus)}; duplicates at the simulator: ${duplicates}`,
        `every log uploaded ${((drained.at - marks.resume) / 1000).toFixed(1)} s after SIGCONT (the load went on for ${STALL.afterS} s of it)`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}

/** One request every 1/rate s whatever the others do, as agents that do not wait for each other. */
function openLoop(url, requests) {
  let n = 0;
  const timer = setInterval(() => {
    const request = { sentAt: Date.now() };
    const orderId = String(737185556881998184n + BigInt(n++));
    request.done = fetch(`${url}/v1/ai-logs`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: logText(orderId),
      signal: AbortSignal.timeout(STALL.requestTimeoutS * 1000),
    }).then(
      async (res) => {
        await res.arrayBuffer();
        Object.assign(request, { status: res.status, answeredAt: Date.now(), latencyMs: Date.now() - request.sentAt });
      },
      (error) => Object.assign(request, { error: error.name }),
    );
    requests.push(request);
  }, 1000 / STALL.rate);
  return { stop: async () => clearInterval(timer) };
}

function latencyStats(requests) {
  const sorted = requests.map((r) => r.latencyMs ?? Infinity).sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) };
}

function countBy(items, key) {
  const counts = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}
