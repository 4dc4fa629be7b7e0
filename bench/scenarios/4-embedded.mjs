import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DURATION_S, INGEST_CONNECTIONS, REST_S, TARGETS } from '../settings.mjs';
import { Cleanup } from '../support/gateway.mjs';
import { cannon, loadHeading, otherStatuses } from '../support/load.mjs';
import { logText } from '../support/payload.mjs';
import { ENTRY, freePort, NodeProcess, poll, RssSampler, sleep } from '../support/processes.mjs';
import { mb } from '../support/format.mjs';

export const title = 'POST /v1/ai-logs in embedded mode (`npm start`: PGlite + BullMQ on PostgreSQL, worker and simulator in-process)';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * `npm start` as a user runs it, with nothing but free ports and a data directory set. First as after a fresh clone's
 * `npm install`: `npm start` itself, with no build yet (the build's stamp removed) and a new data directory, timed to
 * the first 202 of `POST /v1/ai-logs`, then left at rest for REST_S seconds and its RSS read. Then restarted on the same
 * data directory and loaded: the worker runs in the same process and uploads to the in-process simulator meanwhile, as
 * it would for a user. The rows are counted through `GET /admin/queue` (logs by status in PGlite, and BullMQ's job
 * counts) with the sandbox admin token of the banner.
 */
export async function run() {
  const cleanup = new Cleanup();
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-embedded-'));
    cleanup.defer(async () => rmSync(dataDir, { recursive: true, force: true }));
    const first = await firstStart(cleanup, dataDir);
    const port = await freePort();
    // The per-agent limit on, as deployed, at a limit the benchmark never reaches (see gatewayEnvironment).
    const env = { DATA_DIR: dataDir, PORT: String(port), SIM_PORT: '0', SIM_SPOT_PORT: '0', AGENT_RATE_LIMIT_PER_MIN: '1000000000', LOG_LEVEL: 'warn' };
    const gateway = new NodeProcess('standalone', ENTRY.standalone, env);
    cleanup.defer(() => gateway.stop());
    // Its output is not a terminal: JSON lines, no banner. The sandbox's key and admin token are in DATA_DIR.
    const url = `http://127.0.0.1:${port}`;
    await poll('the gateway to be ready', 120_000, async () => ((await fetch(`${url}/health/ready`).catch(() => undefined))?.ok ? true : undefined));
    const key = readFileSync(join(dataDir, 'sandbox-agent-key'), 'utf8').trim();
    const adminToken = readFileSync(join(dataDir, 'sandbox-admin-token'), 'utf8').trim();
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
    const firstLogS = first.firstLogMs / 1000;
    return {
      throughput: load.perSecond,
      unit: 'logs/s',
      p50: load.p50,
      p99: load.p99,
      rssMb: peakRssMb,
      targets: [
        { text: `≥ ${TARGETS.embeddedLogsPerS.toLocaleString('en')} logs/s`, pass },
        { text: 'every 202 committed', pass: overview ? rows >= load.warmupOk + load.ok : false },
        { text: `at rest ${mb(first.restRssMb)} ≤ ${TARGETS.embeddedRestRssMb} MB`, pass: first.restRssMb <= TARGETS.embeddedRestRssMb },
        { text: `npm install → first 202 ${firstLogS.toFixed(1)} s ≤ ${TARGETS.embeddedFirstLogS} s`, pass: firstLogS <= TARGETS.embeddedFirstLogS },
      ],
      details: [
        `first \`npm start\` after \`npm install\` (build included: ${(first.buildMs / 1000).toFixed(1)} s; new data directory, initdb included): first 202 after ${firstLogS.toFixed(1)} s; ` +
          `RSS ${mb(first.restRssMb)} at rest ${REST_S} s later (kernel high-water mark ${mb(first.peakRssMb)})`,
        `${loadHeading(load, 202)}: ${load.ok} × 202 ${otherStatuses(load, 202)}`,
        overview
          ? `counted through GET /admin/queue: ${rows} logs in PGlite for ${load.warmupOk + load.ok} answers (warm-up included) (${describe(overview.logs)}); BullMQ jobs: ${overview.jobs ? describe(overview.jobs) : `unavailable (${overview.jobsError})`}. ` +
            'The in-process worker uploads meanwhile, so jobs leave the queue as logs become `uploaded`'
          : 'no admin token in the banner: rows not counted',
        `restarted on that data directory, one process (API, worker, simulator, PGlite): RSS ${mb(restRssMb)} before the load, ${mb(peakRssMb)} peak under load`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}

/**
 * `npm start` in the checkout as on a fresh clone after `npm install`: the build's stamp removed, so its prestart builds
 * everything (Prisma's client, then swc), as it does when there is no dist/. Returns the time from spawning npm to the
 * first 202, the build's share of it, and the gateway's RSS REST_S seconds later.
 */
async function firstStart(cleanup, dataDir) {
  rmSync(join(ROOT, 'dist/.build-stamp'), { force: true });
  const port = await freePort();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(port), SIM_PORT: '0', SIM_SPOT_PORT: '0' };
  const spawnedAt = Date.now();
  // Its own process group, so that npm, its shell and the gateway stop together.
  const npm = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let builtAt;
  const listen = (chunk) => {
    output += chunk;
    // npm announces the start script once the prestart build is done.
    builtAt ??= /^> \S+ start$/m.test(output) ? Date.now() : undefined;
  };
  npm.stdout.on('data', listen);
  npm.stderr.on('data', (chunk) => (output += chunk));
  const stopped = new Promise((resolve) => npm.once('exit', resolve));
  cleanup.defer(async () => {
    if (npm.exitCode === null && npm.signalCode === null) process.kill(-npm.pid, 'SIGTERM');
    await stopped;
  });
  const url = `http://127.0.0.1:${port}`;
  const started = await poll('`npm start` to listen', 120_000, async () => {
    if (npm.exitCode !== null) throw new Error(`npm start exited ${npm.exitCode}: ${output.slice(-2000)}`);
    return output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((entry) => /^AI-log gateway listening on /.test(entry.msg));
  });
  const key = readFileSync(join(dataDir, 'sandbox-agent-key'), 'utf8').trim();
  await poll('the first 202', 60_000, async () => {
    const res = await fetch(`${url}/v1/ai-logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: logText(),
    });
    return res.status === 202 ? true : (await sleep(20), undefined);
  });
  const firstLogMs = Date.now() - spawnedAt;
  await sleep(REST_S * 1000);
  const status = readFileSync(`/proc/${started.pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)[1]);
  process.kill(-npm.pid, 'SIGTERM');
  await stopped;
  return { firstLogMs, buildMs: (builtAt ?? spawnedAt) - spawnedAt, restRssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
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

const describe = (counts) =>
  Object.entries(counts)
    .filter(([, n]) => n)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';
