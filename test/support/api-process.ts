import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSimAccounts, type RunningSimulator, startSimulator } from '../../apps/exchange-sim/src/index.js';
import { REDIS_URL } from './services.js';
import { createTempDatabase } from './temp-database.js';
import { waitFor } from './wait-for.js';
import { spawnChild } from './child-processes.js';

// The built API (`npm run start:api`'s entry point; `npm test` builds first), as a process of its own: several can
// share one Redis as replicas do, and its JSON log lines can be read.
const MAIN = new URL('../../dist/apps/api/src/main.js', import.meta.url).pathname;

export class ApiProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly read: () => string,
    private readonly dataDir: string,
  ) {}

  /** Starts the API with the given environment (and a DATA_DIR of its own) and waits until it listens on a free port. */
  static async start(env: Record<string, string>): Promise<ApiProcess> {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-api-'));
    const child = spawnChild(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH, PORT: '0', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const api = (url: string) => new ApiProcess(child, url, () => output, dataDir);
    try {
      // "listening on" is logged at LOG_LEVEL=log: lower levels would hide it.
      const url = await waitFor(
        'the API to listen',
        async () => {
          if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}: ${output}`);
          return /listening on (http:\/\/\S+)/.exec(output)?.[1];
        },
        60_000,
      );
      return api(url);
    } catch (error) {
      await api('').stop();
      throw error;
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Everything it wrote to stdout and stderr. */
  get log(): string {
    return this.read();
  }

  /** Its JSON log lines, parsed. */
  logLines(): Array<{ level: number; msg: string; context?: string }> {
    return this.log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      await once(this.child, 'exit');
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export interface ApiProcessSuite {
  /** What every API of the suite runs on: its database, Redis, a queue prefix, the simulator; set in beforeAll. */
  env: Record<string, string>;
  /** Starts an API process on `env` and `extra` (which may unset REDIS_URL with ''); stopped in afterAll. */
  start(extra?: Record<string, string>): Promise<ApiProcess>;
}

/** For one test file: a simulator and a database of its own, made in beforeAll, and API processes on them. */
export function apiProcessSuite(): ApiProcessSuite {
  const apis: ApiProcess[] = [];
  let sim: RunningSimulator | undefined;
  let drop = async () => {};
  const suite: ApiProcessSuite = {
    env: {},
    async start(extra = {}) {
      const env = Object.fromEntries(Object.entries({ ...suite.env, ...extra }).filter(([, value]) => value !== ''));
      const api = await ApiProcess.start(env);
      apis.push(api);
      return api;
    },
  };
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, accounts: defaultSimAccounts() });
    const db = await createTempDatabase();
    drop = db.drop;
    suite.env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_PREFIX: `api-${randomBytes(4).toString('hex')}`,
      WEEX_BASE_URL: sim.url,
      WEEX_SPOT_BASE_URL: sim.spotUrl,
      LOG_LEVEL: 'log',
    };
  }, 60_000);
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await sim?.close();
    await drop();
  }, 30_000);
  return suite;
}
