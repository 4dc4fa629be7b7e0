import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REDIS_URL } from '../settings.mjs';
import { ENTRY, freePort, NodeProcess } from './processes.mjs';
import { benchPrefix, createTempDatabase, removePrefix } from './services.mjs';

/** The agent key every production-layout scenario configures (AGENT_API_KEY: at least 16 characters). */
export const AGENT_KEY = 'agk_bench_0123456789abcdef';
export const AUTH = { authorization: `Bearer ${AGENT_KEY}` };

/** Cleanups run in reverse order, each even if an earlier one failed: nothing of a scenario is left behind. */
export class Cleanup {
  static active = new Set();
  steps = [];

  constructor() {
    Cleanup.active.add(this);
  }

  defer(step) {
    this.steps.push(step);
  }

  async run() {
    Cleanup.active.delete(this);
    const steps = this.steps.splice(0).reverse();
    for (const step of steps) await step().catch((error) => console.error(`cleanup: ${error.message}`));
  }

  /** On Ctrl-C: whatever the scenario under way started is still stopped and removed. */
  static async runAll() {
    for (const cleanup of [...Cleanup.active]) await cleanup.run();
  }
}

/**
 * What the gateway processes of one scenario share, in the production layout: a fresh database (on the machine's
 * server, or on `postgresUrl`'s), Redis under a prefix of the scenario's own, a data directory, and the bench agent key
 * with a per-agent rate limit it never reaches.
 */
export async function gatewayEnvironment(cleanup, extra = {}, { postgresUrl } = {}) {
  const database = await createTempDatabase(postgresUrl);
  cleanup.defer(() => database.drop());
  const prefix = benchPrefix();
  cleanup.defer(() => removePrefix(prefix));
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  cleanup.defer(async () => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    DATA_DIR: dataDir,
    AGENT_API_KEY: AGENT_KEY,
    // On, as deployed (the default is 6,000 a minute), at a limit this benchmark's one agent never reaches.
    AGENT_RATE_LIMIT_PER_MIN: '1000000000',
    LOG_LEVEL: 'warn', // request logging would otherwise dominate the profile
    ...extra,
  };
  return { database, prefix, dataDir, env };
}

/** The API as `npm run start:api` runs it (node flags included), on a free port; resolves once it answers HTTP. */
export async function startApi(cleanup, env, nodeArgs = []) {
  const port = await freePort();
  const api = new NodeProcess('api', ENTRY.api, { ...env, PORT: String(port), HOST: '127.0.0.1' }, nodeArgs);
  cleanup.defer(() => api.stop());
  api.url = `http://127.0.0.1:${port}`;
  await api.waitForHttp(`${api.url}/health/live`);
  return api;
}

/** The worker as `npm run start:worker` runs it; it has no port, so readiness is left to the caller (see waitForWorker). */
export function startWorker(cleanup, env) {
  const worker = new NodeProcess('worker', ENTRY.worker, env);
  cleanup.defer(() => worker.stop());
  return worker;
}

/**
 * The simulator in a process of its own (`npm run start:sim`) on free ports, and a client for its `/__sim` paths;
 * `env` adds settings such as SIM_SEED_FILE.
 */
export async function startSimulator(cleanup, env = {}) {
  const sim = new NodeProcess('simulator', ENTRY.simulator, { SIM_PORT: '0', SIM_SPOT_PORT: '0', HOST: '127.0.0.1', ...env });
  cleanup.defer(() => sim.stop());
  const [, url, spotUrl] = await sim.waitForOutput(/listening on (http:\/\/[^\s,]+), spot on (http:\/\/[^\s,(]+)/);
  const control = async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return Object.assign(sim, { url, spotUrl, control, weexEnv: { WEEX_BASE_URL: url, WEEX_SPOT_BASE_URL: spotUrl } });
}
