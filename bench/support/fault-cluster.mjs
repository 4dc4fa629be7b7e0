import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AGENT_KEY, gatewayEnvironment, startSimulator } from './gateway.mjs';
import { ENTRY, freePort, NodeProcess, poll, RssSampler } from './processes.mjs';
import { UPLOAD_QUEUE } from './services.mjs';

/** The second account: the simulator learns it from a seed file, the gateway through `POST /admin/accounts`. */
export const ACCOUNT_B = {
  id: 'fault-run-b',
  uid: '8000000042',
  apiKey: 'fault-run-b-api-key',
  secret: 'fault-run-b-secret-0123456789',
  passphrase: 'fault-run-b-passphrase',
};
const ADMIN_TOKEN = `fault-run-admin-${randomBytes(8).toString('hex')}`;

/**
 * The production layout under test: a fresh database, a redis-server of its own (so that it may be killed and
 * stopped), the simulator in a process of its own with two allowlisted accounts, N APIs and M workers as
 * `npm run start:api` / `start:worker` run them. Every process is watched: one that exits without being killed is
 * recorded and started again.
 */
export class FaultCluster {
  unexpectedExits = [];

  static async start(cleanup, { apis, workers, env = {} }) {
    const cluster = new FaultCluster();
    await cluster.#start(cleanup, apis, workers, env);
    return cluster;
  }

  async #start(cleanup, apiCount, workerCount, extraEnv) {
    this.redis = new RedisServer(await freePort());
    cleanup.defer(() => this.redis.stop());
    await this.redis.start();
    const gateway = await gatewayEnvironment(cleanup, {
      REDIS_URL: this.redis.url,
      ADMIN_TOKEN,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).replaceAll('\n', '\\n'),
      AGENT_RATE_LIMIT_PER_MIN: '6000', // the default, as deployed
    });
    this.database = gateway.database;
    const seedFile = join(gateway.dataDir, 'sim-seed.json');
    const { id: _id, ...simAccount } = ACCOUNT_B;
    writeFileSync(seedFile, JSON.stringify({ accounts: [{ ...simAccount, aiLogAllowlisted: true }] }));
    this.sim = await startSimulator(cleanup, { SIM_SEED_FILE: seedFile });
    this.env = { ...gateway.env, ...this.sim.weexEnv, ...extraEnv };
    const onExit = (exit) => this.unexpectedExits.push(exit);
    // The first API migrates the database alone; the others start on a migrated one.
    this.apis = [];
    for (let i = 0; i < apiCount; i++) {
      const api = new Supervised(`api-${i + 1}`, ENTRY.api, { ...this.env, PORT: String(await freePort()) }, onExit);
      cleanup.defer(() => api.stop());
      this.apis.push(api);
      if (i === 0) await api.start();
    }
    await Promise.all(this.apis.slice(1).map((api) => api.start()));
    this.workers = Array.from({ length: workerCount }, (_, i) => new Supervised(`worker-${i + 1}`, ENTRY.worker, this.env, onExit));
    for (const worker of this.workers) cleanup.defer(() => worker.stop());
    await Promise.all(this.workers.map((worker) => worker.start()));
    await this.#waitForWorkers(workerCount);
    this.agentKeys = { default: AGENT_KEY, [ACCOUNT_B.id]: await this.#addAccountB() };
  }

  get apiUrls() {
    return this.apis.map((api) => api.url);
  }

  /** Account B and an agent key for it, through the admin API, as an operator adds a team. */
  async #addAccountB() {
    const admin = async (path, body) => {
      const res = await fetch(`${this.apis[0].url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
      return res.json();
    };
    const { id, apiKey, secret, passphrase } = ACCOUNT_B;
    await admin('/admin/accounts', { id, name: 'Fault run B', apiKey, secret, passphrase, baseUrl: this.sim.url, spotBaseUrl: this.sim.spotUrl });
    return (await admin('/admin/agents', { accountId: id, label: 'fault-run agents', scopes: ['logs:write'] })).key;
  }

  /** Workers have no port: they are up when BullMQ counts them on the queue. */
  async #waitForWorkers(count) {
    const redis = this.redis.client();
    const queue = new Queue(UPLOAD_QUEUE, { connection: redis, prefix: this.env.QUEUE_PREFIX });
    try {
      await poll(`${count} workers on the queue`, 60_000, async () => ((await queue.getWorkersCount()) >= count ? true : undefined));
    } finally {
      await queue.close();
      redis.disconnect();
    }
  }

  /** Peak RSS (MB) of every incarnation of the APIs, and of the workers. */
  peakRss() {
    const peak = (list) => Math.max(...list.map((p) => p.peakRssMb()));
    return { apiMb: peak(this.apis), workerMb: peak(this.workers) };
  }

  /** Whatever the faults left down or stopped is up again: Redis answering, every process running. */
  async restoreAll() {
    await this.redis.ensureRunning();
    await Promise.all([...this.apis, ...this.workers].filter((p) => !p.running).map((p) => p.restart()));
  }
}

/** A gateway process that can be SIGKILLed and started again on the same port, its RSS sampled in every life. */
class Supervised {
  samplers = [];
  stopping = false;

  constructor(name, script, env, onUnexpectedExit) {
    this.name = name;
    this.script = script;
    this.env = env;
    this.onUnexpectedExit = onUnexpectedExit;
    this.url = env.PORT ? `http://127.0.0.1:${env.PORT}` : undefined;
  }

  get running() {
    return this.process?.running ?? false;
  }

  /** Running, and for an API answering HTTP: what a fault picks, so that it kills a process at work, not one starting. */
  get serving() {
    return this.running && this.started;
  }

  async start() {
    this.expectExit = false;
    this.started = false;
    const proc = new NodeProcess(this.name, this.script, this.env);
    this.process = proc;
    const sampler = new RssSampler(proc.pid, 250);
    this.samplers.push(sampler);
    proc.exited.then(([code, signal]) => {
      sampler.stop();
      if (this.expectExit || this.stopping || proc !== this.process) return;
      this.onUnexpectedExit({ name: this.name, atMs: Date.now(), code, signal, output: proc.output.slice(-2_000) });
      setTimeout(() => !this.stopping && !this.running && this.start().catch(() => {}), 1_000);
    });
    if (this.url) await proc.waitForHttp(`${this.url}/health/live`);
    this.started = proc === this.process;
  }

  async kill() {
    if (!this.running) return false;
    this.expectExit = true;
    this.process.child.kill('SIGKILL');
    await this.process.exited;
    return true;
  }

  /** Starts it again; a start that fails is recorded by the exit watch, not thrown at the fault that asked. */
  async restart() {
    if (this.running || this.stopping) return;
    await this.start().catch(() => {});
  }

  async stop() {
    this.stopping = true;
    await this.process?.stop();
  }

  peakRssMb() {
    return Math.max(...this.samplers.map((s) => s.maxBetween(0)).filter(Number.isFinite));
  }
}

/** A redis-server of the run's own, without persistence: killed, it comes back empty; stopped, it answers nothing. */
class RedisServer {
  constructor(port) {
    this.port = port;
    this.url = `redis://127.0.0.1:${port}`;
  }

  client() {
    return new Redis(this.url, { maxRetriesPerRequest: null });
  }

  async start() {
    this.paused = false;
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.exited = once(this.child, 'exit');
    await poll('redis-server to answer PING', 10_000, async () => {
      const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on('error', () => {}); // not up yet: the next poll tries again
      try {
        await client.connect();
        return (await client.ping()) === 'PONG' ? true : undefined;
      } catch {
        return undefined;
      } finally {
        client.disconnect();
      }
    });
  }

  get running() {
    return this.child?.exitCode === null && this.child?.signalCode === null;
  }

  async kill() {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  pause() {
    this.child.kill('SIGSTOP');
    this.paused = true;
  }

  resume() {
    if (this.running) this.child.kill('SIGCONT');
    this.paused = false;
  }

  async ensureRunning() {
    if (this.paused) this.resume();
    if (!this.running) await this.start();
  }

  async stop() {
    this.resume();
    await this.kill();
  }
}
