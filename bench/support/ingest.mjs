import { DURATION_S } from '../settings.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi } from './gateway.mjs';
import { cannon, loadHeading, otherStatuses } from './load.mjs';
import { cpuMs, poll, RssSampler, sleep } from './processes.mjs';
import { countCommittedAndQueued } from './services.mjs';

/**
 * Load on an ingest endpoint of the API process alone (no worker, so the queue keeps every job to be counted),
 * against a fresh database and Redis prefix; then the rows and jobs are counted beside the answers.
 */
export async function measureIngest({ path, body, connections, expectStatus, logsPerRequest = 1, nodeArgs = [], env = {} }) {
  const cleanup = new Cleanup();
  try {
    const gateway = await gatewayEnvironment(cleanup, env);
    const api = await startApi(cleanup, gateway.env, nodeArgs);
    const rss = new RssSampler(api.pid);
    cleanup.defer(async () => rss.stop());
    await sleep(1_000); // settle after start: the figure at rest
    const restRssMb = rss.at();
    const started = Date.now();
    const cpuBefore = cpuMs(api.pid);
    const load = await cannon({ url: `${api.url}${path}`, headers: AUTH, body, connections, durationS: DURATION_S, expectStatus });
    const cpuAfter = cpuMs(api.pid);
    const loadSeconds = (Date.now() - started) / 1000;
    const peakRssMb = rss.maxBetween(started);
    // The load's window in ms since the API was spawned, to pick the profile's samples of it (start-up left out).
    const loadWindow = { fromMs: load.measuredFrom - api.spawnedAt, toMs: Date.now() - api.spawnedAt };
    // Requests in flight when autocannon stopped still commit: count once the table stops growing.
    let last = -1;
    const counts = await poll('ai_logs to stop growing', 30_000, async () => {
      const now = await countCommittedAndQueued(gateway.database, gateway.prefix);
      const stable = now.rows === last;
      last = now.rows;
      return stable ? now : (await sleep(400), undefined);
    });
    const highWaterMb = rss.highWaterMb();
    await api.stop();
    // Rows beyond the answers can only be requests in flight when the warm-up or the load stopped: at most one per
    // connection each time.
    const inFlightMax = connections * logsPerRequest * (load.warmupS > 0 ? 2 : 1);
    const logs = (load.warmupOk + load.ok) * logsPerRequest;
    const cpu = { apiMs: cpuAfter.processMs - cpuBefore.processMs, machineMs: cpuAfter.machineMs - cpuBefore.machineMs, seconds: loadSeconds };
    return { load, logs, inFlightMax, counts, loadWindow, restRssMb, peakRssMb, highWaterMb, cpu, exitCode: api.child.exitCode };
  } finally {
    await cleanup.run();
  }
}

/** The report's lines on "every answer committed and queued". */
export function countLines(result, expected, unit = 'logs') {
  const { load, logs, counts } = result;
  return [
    `${loadHeading(load, expected)}: ${load.ok} × ${expected} ${otherStatuses(load, expected)}`,
    `${unit} answered as queued (warm-up included): ${logs}; rows in ai_logs afterwards: ${counts.rows}; rows whose account has a wake-up in the queue: ${counts.rowsWithJob}; ` +
      `jobs in the queue: ${counts.jobs} (${
        Object.entries(counts.jobCounts)
          .filter(([, n]) => n)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || 'none'
      })`,
    ...(counts.rows > logs
      ? [
          counts.rows - logs <= result.inFlightMax
            ? `the ${counts.rows - logs} rows beyond the answers are requests in flight when the warm-up or the load stopped: committed, their answer not counted`
            : `${counts.rows - logs} rows beyond the answers: more than the ${result.inFlightMax} that could have been in flight`,
        ]
      : []),
  ];
}

/**
 * CPU per answered log over the warm-up and the load: the API process's (all threads: garbage collection included) and
 * the machine's (PostgreSQL, Redis and the load generator too).
 */
export function cpuLine({ cpu, logs }) {
  const perLog = (ms) => `${Math.round((ms * 1000) / logs)} µs`;
  const cores = (ms) => `${(ms / 10 / cpu.seconds).toFixed(0)}% of a core`;
  return `CPU per log (warm-up included): API process ${perLog(cpu.apiMs)} (${cores(cpu.apiMs)}), whole machine ${perLog(cpu.machineMs)} (${cores(cpu.machineMs)})`;
}

/** Every answered log is in the table, nothing else is (beyond what was in flight), and every row's account is woken. */
export function allCommittedAndQueued({ counts, logs, inFlightMax }) {
  return counts.rows >= logs && counts.rows - logs <= inFlightMax && counts.rowsWithJob === counts.rows;
}
