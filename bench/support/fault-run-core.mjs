import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runAgents, Ledger } from './fault-agents.mjs';
import { reckon, failures } from './fault-check.mjs';
import { FaultCluster } from './fault-cluster.mjs';
import { FaultInjector } from './fault-injector.mjs';
import { parseFaults, planFaults } from './fault-schedule.mjs';
import { Cleanup } from './gateway.mjs';
import { describeMachine } from './machine.mjs';
import { poll, sleep } from './processes.mjs';

export const DEFAULTS = {
  durationS: 75,
  seed: 1,
  faults: 'all',
  apis: 2,
  workers: 3,
  agentsPerAccount: 4,
  ratePerS: 30,
  batchShare: 0.3,
  maxBatch: 20,
  maxOutstanding: 8,
  replayShare: 0.05,
  giveUpS: 180,
  clientTimeoutS: 5,
  drainTimeoutS: 300,
  latencyMs: 0,
};

/**
 * The gateway settings the run changes from the defaults, and why: with the 300 s default cap, a log that met a few
 * faults in a row waits minutes for its next attempt, and the drain would measure the backoff, not the gateway.
 */
export const GATEWAY_ENV = { UPLOAD_BACKOFF_MAX_MS: '10000' };

/**
 * One fault run in phases, so that a test can tamper with the database between `drain` and `check`:
 * `start` (the cluster), `load` (agents and faults, then everything restored), `drain`, `check`, `stop`.
 */
export class FaultRun {
  static async start(input = {}) {
    const options = { ...DEFAULTS, ...input };
    const run = new FaultRun(options);
    try {
      run.plan = planFaults({ seed: options.seed, durationMs: options.durationS * 1000, faults: parseFaults(options.faults, options.durationS) });
      run.cluster = await FaultCluster.start(run.cleanup, { apis: options.apis, workers: options.workers, env: { ...GATEWAY_ENV, ...options.env } });
    } catch (error) {
      await run.stop();
      throw error;
    }
    return run;
  }

  constructor(options) {
    this.options = options;
    this.runId = `fr${randomBytes(3).toString('hex')}`;
    this.cleanup = new Cleanup();
    this.ledger = new Ledger();
    this.timings = {};
  }

  get database() {
    return this.cluster.database;
  }

  get sim() {
    return this.cluster.sim;
  }

  /**
   * Agents post for `durationS` while the schedule plays; then faults stop, everything is restored, agents finish.
   * The delay of this process's event loop is measured meanwhile: when it is long, faults and retries came late.
   */
  async load(onFault = () => {}) {
    const { options } = this;
    const loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
    this.injector = new FaultInjector(this.cluster, options.seed, onFault, options.latencyMs ? { latencyMs: options.latencyMs } : {});
    const startedAt = Date.now();
    const loadEndsAt = startedAt + options.durationS * 1000;
    await this.injector.start(this.plan.events);
    const agents = runAgents({
      cluster: this.cluster,
      ledger: this.ledger,
      runId: this.runId,
      seed: options.seed,
      loadEndsAt,
      options: { ...options, giveUpMs: options.giveUpS * 1000, clientTimeoutMs: options.clientTimeoutS * 1000 },
    });
    await sleep(loadEndsAt - Date.now());
    await this.injector.stop();
    this.timings.faultsStoppedS = seconds(startedAt);
    await agents;
    this.timings.agentsDoneS = seconds(loadEndsAt);
    this.loadEndsAt = loadEndsAt;
    loopDelay.disable();
    this.timings.runnerLoopDelayMs = { p99: Math.round(loopDelay.percentile(99) / 1e6), max: Math.round(loopDelay.max / 1e6) };
  }

  /** Waits until no log is queued, uploading or retrying; `drainS` counts from the end of the load. */
  async drain() {
    const pending = async () =>
      (await this.database.query(`SELECT count(*)::int AS n FROM ai_logs WHERE status::text NOT IN ('uploaded', 'failed')`)).rows[0].n;
    try {
      await poll('every log uploaded or failed', this.options.drainTimeoutS * 1000, async () =>
        (await pending()) === 0 ? true : (await sleep(900), undefined),
      );
      this.timings.drainS = seconds(this.loadEndsAt);
    } catch {
      this.timings.drainS = null; // timed out: the pending rows are counted by check()
    }
  }

  async check() {
    const figures = await reckon({ database: this.database, sim: this.sim, ledger: this.ledger, runId: this.runId });
    figures.unexpectedExits = this.cluster.unexpectedExits.length;
    return figures;
  }

  async stop() {
    await this.cleanup.run();
  }

  /** Seconds from the start of the load (negative before it: while the cluster started). */
  #loadSeconds(atMs) {
    return Number(((atMs - (this.injector?.startedAt ?? atMs)) / 1000).toFixed(1));
  }

  /** Everything a report needs besides the figures. */
  describe() {
    return {
      runId: this.runId,
      options: this.options,
      gatewayEnv: { ...GATEWAY_ENV, ...this.options.env },
      schedule: this.plan,
      faultLog: this.injector?.log ?? [],
      timings: this.timings,
      rss: this.cluster.peakRss(),
      unexpectedExits: this.cluster.unexpectedExits.map(({ atMs, ...exit }) => ({ atS: this.#loadSeconds(atMs), ...exit })),
    };
  }
}

/** A whole run, start to stop; `failures` lists the must-be-zero figures that are not. */
export async function runFaultRun(input, progress = () => {}) {
  const machine = await describeMachine();
  const run = await FaultRun.start(input);
  try {
    progress(`run ${run.runId}: ${run.options.apis} APIs, ${run.options.workers} workers, Redis at ${run.cluster.redis.url}, simulator at ${run.sim.url}`);
    progress(`load for ${run.options.durationS} s with ${run.plan.events.length} faults scheduled`);
    await run.load((e) => progress(`  ${String(e.atS).padStart(6)} s  ${e.kind.padEnd(12)} ${e.detail}`));
    progress(`load over; agents done ${run.timings.agentsDoneS} s after it; draining`);
    await run.drain();
    run.timings.loadAverageAtEnd = loadavg()
      .map((n) => n.toFixed(2))
      .join(', ');
    const figures = await run.check();
    return { machine, ...run.describe(), figures, failures: failures(figures) };
  } finally {
    await run.stop();
  }
}

const seconds = (from) => Number(((Date.now() - from) / 1000).toFixed(1));
