import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { growthSettings, SANDBOX_UID } from '../settings.mjs';
import { Cleanup, gatewayEnvironment, startApi, startSimulator, startWorker } from '../support/gateway.mjs';
import {
  ADMIN_TOKEN,
  adminUploads,
  auditReads,
  coverage,
  drain,
  ingest,
  PeriodicJobWatcher,
  reads,
  seededOrders,
  tableStats,
  waiting,
} from '../support/growth-measure.mjs';
import { growthResult } from '../support/growth-report.mjs';
import { poll, RssSampler } from '../support/processes.mjs';
import { startPrivatePostgres } from '../support/private-postgres.mjs';
import { uploadWorkers } from '../support/services.mjs';

const initial = growthSettings();
export const title = `Growth of one account to ${initial.logs.toLocaleString('en')} logs: ingest, drain, reads, coverage of ${initial.orders.toLocaleString('en')} orders, audit, RSS (start:api + start:worker, autovacuum on)`;

/** Budgets far beyond what the drain can spend: the drain is then bound by the gateway, not by the exchange's pacing. */
const UNBOUNDED_WEIGHT = 10_000_000;

/**
 * Grows one account in steps (a tenth, a quarter, a half, all of BENCH_GROWTH_LOGS) on the production layout, on a
 * PostgreSQL server of its own with autovacuum on as initdb leaves it. Each step pauses the account's uploads, posts
 * the step's logs in batches of 500, resumes and drains them, then reads as agents and judges do; the processes' RSS
 * is sampled throughout. What a step costs is compared with the steps before: what grows with the history shows.
 */
export async function run() {
  const settings = growthSettings();
  const cleanup = new Cleanup();
  try {
    const postgres = await startPrivatePostgres(cleanup);
    const orders = seededOrders(settings.orders);
    const seedDir = mkdtempSync(join(tmpdir(), 'gateway-bench-seed-'));
    cleanup.defer(async () => rmSync(seedDir, { recursive: true, force: true }));
    const seedFile = join(seedDir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify({ accounts: [{ uid: SANDBOX_UID, orders }] }));
    const sim = await startSimulator(cleanup, { SIM_SEED_FILE: seedFile });
    await sim.control('PUT', '/__sim/budgets', { windowMs: 10_000, ipLimit: UNBOUNDED_WEIGHT, uidLimit: UNBOUNDED_WEIGHT });
    const gateway = await gatewayEnvironment(
      cleanup,
      {
        ...sim.weexEnv,
        ADMIN_TOKEN,
        WEEX_IP_WEIGHT_LIMIT: String(UNBOUNDED_WEIGHT),
        WEEX_UID_WEIGHT_LIMIT: String(UNBOUNDED_WEIGHT),
        // Coverage needs the orders in PostgreSQL soon after they exist; the sync is cheap when nothing changed.
        EVIDENCE_SYNC_INTERVAL_MS: '5000',
      },
      { postgresUrl: postgres.url },
    );
    const api = await startApi(cleanup, gateway.env);
    const worker = startWorker(cleanup, gateway.env);
    const rss = { api: new RssSampler(api.pid), worker: new RssSampler(worker.pid) };
    cleanup.defer(async () => Object.values(rss).forEach((sampler) => sampler.stop()));
    await poll('the worker to consume the queue', 60_000, async () => ((await uploadWorkers(gateway.prefix)) >= 1 ? true : undefined));
    const jobs = new PeriodicJobWatcher(gateway.prefix);
    cleanup.defer(() => jobs.stop());
    const orderIds = orders.map((o) => o.orderId);
    await poll('the evidence sync to store the seeded orders', 120_000, async () => {
      const { rows } = await gateway.database.query(`SELECT count(*)::int AS n FROM exchange_orders WHERE account_id = 'default'`);
      return rows[0].n >= orderIds.length ? true : undefined;
    });

    const steps = [];
    const cutOff = { coverage: false, report: false };
    let from = 0;
    for (const to of settings.steps) {
      const started = Date.now();
      const phases = {};
      const phase = async (name, work) => {
        const at = Date.now();
        const value = await work();
        phases[name] = { seconds: (Date.now() - at) / 1000, apiMb: rss.api.maxBetween(at), workerMb: rss.worker.maxBetween(at) };
        return value;
      };
      const pause = await adminUploads(api, 'pause');
      const ingested = await phase('ingest', () => ingest(api, { from, to, orderIds, batch: settings.batch, connections: settings.connections }));
      const backlog = await waiting(gateway.database);
      const resume = await adminUploads(api, 'resume');
      const drained = await phase('drain', () => drain({ sim, database: gateway.database, backlog, sliceS: settings.sliceS, capS: settings.drainCapS }));
      // A drain cut short by the cap is paused, so that the reads below do not race the rest of it.
      if (drained.left > 0) await adminUploads(api, 'pause');
      const latencies = await phase('reads', () => reads(api, gateway.database, { total: to, orderIds, n: settings.reads }));
      // A call cut off at one step would take longer at the next: asked no more.
      const limits = { limitS: settings.callLimitS, database: gateway.database };
      const covered = cutOff.coverage ? { skipped: true, times: [], ms: NaN } : await phase('coverage', () => coverage(api, limits));
      const audit = await phase('audit', () => auditReads(api, { ...limits, skipReport: cutOff.report }));
      cutOff.coverage ||= !!covered.cutOff;
      cutOff.report ||= !!audit.report.cutOff;
      const ended = Date.now();
      steps.push({
        logs: to,
        ingest: ingested,
        pauseMs: pause.ms,
        resumeMs: resume.ms,
        drain: drained,
        reads: latencies,
        coverage: covered,
        ...audit,
        checkRuns: await jobs.between('audit-check', started, ended),
        relayRuns: await jobs.between('relay', started, ended),
        syncRuns: await jobs.between('evidence-sync', started, ended),
        phases,
        apiPeakMb: rss.api.maxBetween(started, ended),
        workerPeakMb: rss.worker.maxBetween(started, ended),
        tables: await tableStats(gateway.database),
        statuses: await statusCounts(gateway.database),
        seconds: (ended - started) / 1000,
      });
      console.log(`  ${to.toLocaleString('en')} logs: step done in ${((ended - started) / 1000).toFixed(0)} s`);
      from = to;
    }
    const json = settings.json ?? join(tmpdir(), `growth-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(json, `${JSON.stringify({ settings, autovacuum: postgres.autovacuum, steps }, null, 2)}\n`);
    return growthResult({ settings, autovacuum: postgres.autovacuum, steps, json });
  } finally {
    await cleanup.run();
  }
}

async function statusCounts(database) {
  const { rows } = await database.query(`SELECT status::text, count(*)::int AS n FROM ai_logs WHERE account_id = 'default' GROUP BY status`);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
