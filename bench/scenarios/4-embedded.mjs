import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DURATION_S, INGEST_CONNECTIONS, TARGETS } from '../settings.mjs';
import { Cleanup } from '../support/gateway.mjs';
import { cannon, loadHeading, otherStatuses } from '../support/load.mjs';
import { logText } from '../support/payload.mjs';
import { ENTRY, freePort, NodeProcess, poll, RssSampler, sleep } from '../support/processes.mjs';
import { mb } from '../support/format.mjs';

export const title = 'POST /v1/ai-logs in embedded mode (`npm start`: PGlite + BullMQ on PostgreSQL, worker and simulator in-process)';

/**
 * `npm start` as a user runs it, with nothing but free ports and a data directory set. The worker runs in the same
 * process and uploads to the in-process simulator meanwhile, as it would for a user. The rows are counted through
 * `GET /admin/queue` (logs by status in PGlite, and BullMQ's job counts) with the sandbox admin token of the banner.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-embedded-'));
    cleanup.defer(async () => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    // The per-agent limit on, as deployed, at a limit the benchmark never reaches (see gatewayEnvironment).
    const env = { DATA_DIR: dataDir, PORT: String(port), SIM_PORT: '0', SIM_SPOT_PORT: '0', AGENT_RATE_LIMIT_PER_MIN: '1000000000', LOG_LEVEL: 'warn' };
    const gateway = new NodeProcess('standalone', ENTRY.standalone, env);
    cleanup.defer(() => gateway.stop());
    await gateway.waitForOutput(/Post a log:/, 120_000);
    const url = /listening on (http:\/\/\S+)/.exec(gateway.output)[1];
    const key = /Agent key for the sandbox account: (\S+)/.exec(gateway.output)[1];
    const adminToken = /Admin token \([^)]*\): (\S+)/.exec(gateway.output)?.[1];
    const rss = new RssSampler(gateway.pid);
    cleanup.defer(async () => rss.stop());
    await sleep(1_000);
    const restRssMb = rss.at();
    const started = Date.now();
    const load = await cannon({
      url: `${url}/v1/ai-logs`,
      headers: { authorization: `Bearer ${key}` },
      body: logText(),
      connections: INGEST_CONNECTIONS,
      durationS: DURATION_S,
      expectStatus: 202,
    });
    const peakRssMb = rss.maxBetween(started);
    const overview = adminToken ? await stableOverview(url, adminToken) : undefined;
    const rows = overview ? Object.values(overview.logs).reduce((a, b) => a + b, 0) : NaN;
    const pass = load.perSecond >= TARGETS.embeddedLogsPerS;
    return {
      throughput: load.perSecond,
      unit: 'logs/s',
      p50: load.p50,
      p99: load.p99,
      rssMb: peakRssMb,
      targets: [
        { text: `≥ ${TARGETS.embeddedLogsPerS.toLocaleString('en')} logs/s`, pass },
        { text: 'every 202 committed', pass: overview ? rows >= load.warmupOk + load.ok : false },
      ],
      details: [
        `${loadHeading(load, 202)}: ${load.ok} × 202 ${otherStatuses(load, 202)}`,
        overview
          ? `counted through GET /admin/queue: ${rows} logs in PGlite for ${load.warmupOk + load.ok} answers (warm-up included) (${describe(overview.logs)}); BullMQ jobs: ${overview.jobs ? describe(overview.jobs) : `unavailable (${overview.jobsError})`}. ` +
            'The in-process worker uploads meanwhile, so jobs leave the queue as logs become `uploaded`'
          : 'no admin token in the banner: rows not counted',
        `one process (API, worker, simulator, PGlite): RSS ${mb(restRssMb)} at rest, ${mb(peakRssMb)} peak under load`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}

/** The overview once the log count stops changing (requests in flight at the end still commit). */
async function stableOverview(url, token) {
  let last = -1;
  return poll('the log count to settle', 60_000, async () => {
    const res = await fetch(`${url}/admin/queue`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`GET /admin/queue: ${res.status} ${await res.text()}`);
    const overview = await res.json();
    const rows = Object.values(overview.logs).reduce((a, b) => a + b, 0);
    const stable = rows === last;
    last = rows;
    return stable ? overview : (await sleep(400), undefined);
  });
}

const describe = (counts) => Object.entries(counts).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
