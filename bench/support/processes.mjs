import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import net from 'node:net';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The built entry points (`npm run bench` builds first). */
export const ENTRY = {
  api: `${ROOT}dist/apps/api/src/main.js`,
  worker: `${ROOT}dist/apps/worker/src/main.js`,
  standalone: `${ROOT}dist/apps/standalone/src/main.js`,
  simulator: `${ROOT}dist/apps/exchange-sim/src/main.js`,
  reference: `${ROOT}bench/servers/reference-server.mjs`,
};

/**
 * The environment and node flags each entry point runs with in production, from the `[VAR=value ...] exec node [flags]
 * dist/….js` scripts of package.json (`start`, `start:api`, `start:worker`, `start:sim`, which the Dockerfile and
 * docker-compose.yml repeat): the benchmark measures the processes as users run them.
 */
const SCRIPTS = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).scripts;
const PRODUCTION = Object.fromEntries(
  ['start', 'start:api', 'start:worker', 'start:sim'].map((name) => {
    const [, env, flags, script] = /^((?:[A-Za-z_][A-Za-z0-9_]*=\S+ )*)exec node ((?:--\S+ )*)(dist\/\S+\.js)$/.exec(SCRIPTS[name]) ?? [];
    // A script the benchmark cannot read would run without the production settings: stop rather than measure that.
    if (!script) throw new Error(`package.json's ${name} is not "[VAR=value ...] exec node [--flag ...] dist/....js": ${SCRIPTS[name]}`);
    const pairs = env
      .split(' ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]);
    return [`${ROOT}${script}`, { env: Object.fromEntries(pairs), flags: flags.split(' ').filter(Boolean) }];
  }),
);

const OUTPUT_KEPT = 64 * 1024;

/** A Node child process of its own, so that its RSS is its own; its output is kept for error messages. */
export class NodeProcess {
  output = '';

  constructor(name, script, env, nodeArgs = []) {
    this.name = name;
    this.spawnedAt = Date.now();
    // Only PATH from our environment: a child sees exactly the settings the scenario gives it.
    this.child = spawn(process.execPath, [...(PRODUCTION[script]?.flags ?? []), ...nodeArgs, script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...PRODUCTION[script]?.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk) => (this.output = (this.output + chunk).slice(-OUTPUT_KEPT));
    this.child.stdout.on('data', keep);
    this.child.stderr.on('data', keep);
    this.exited = once(this.child, 'exit');
  }

  get pid() {
    return this.child.pid;
  }

  get running() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first match of `pattern` in the output; rejects if the process exits or time runs out. */
  async waitForOutput(pattern, timeoutMs = 60_000) {
    return poll(`${this.name}: ${pattern}`, timeoutMs, () => {
      if (!this.running) throw new Error(`${this.name} exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.output}`);
      return pattern.exec(this.output) ?? undefined;
    });
  }

  /** Waits until `url` answers HTTP at all (any status): the process listens. */
  async waitForHttp(url, timeoutMs = 60_000) {
    await poll(`${this.name} at ${url}`, timeoutMs, async () => {
      if (!this.running) throw new Error(`${this.name} exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.output}`);
      return fetch(url).then(
        (res) => res.arrayBuffer().then(() => true),
        () => undefined,
      );
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 15_000) {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Polls `check` every 100 ms until it returns something other than undefined. */
export async function poll(what, timeoutMs, check) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port that was free a moment ago, for a child that cannot report the one it picked. */
export async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Samples a child's RSS from outside, every 100 ms, in /proc/<pid>/status (Linux): no code in the measured process.
 * VmHWM there is the kernel's own peak since the process started, startup included.
 */
export class RssSampler {
  samples = [];

  constructor(pid, intervalMs = 100) {
    this.pid = pid;
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.sample();
  }

  sample() {
    const status = readStatus(this.pid);
    if (status) this.samples.push({ at: Date.now(), rssMb: status.VmRSS / 1024 });
  }

  /** Highest sampled RSS (MB) between two Date.now() marks. */
  maxBetween(from, to = Date.now()) {
    const inside = this.samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.rssMb);
    return inside.length ? Math.max(...inside) : NaN;
  }

  /** Last sampled RSS before `at`: the figure at rest. */
  at(at = Date.now()) {
    const before = this.samples.filter((s) => s.at <= at);
    return before.length ? before[before.length - 1].rssMb : NaN;
  }

  /** The kernel's peak RSS of the process so far (MB), startup included. */
  highWaterMb() {
    return (readStatus(this.pid)?.VmHWM ?? NaN) / 1024;
  }

  stop() {
    clearInterval(this.timer);
  }
}

function readStatus(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1]);
    return { VmRSS: kb('VmRSS'), VmHWM: kb('VmHWM') };
  } catch {
    return undefined; // the process is gone
  }
}

const TICKS_PER_S = 100; // USER_HZ: what Linux counts /proc CPU times in

/**
 * CPU time from /proc (Linux), in ms: a process's own (user + system, all its threads) and the whole machine's
 * (every core's busy time). Read before and after a load, they give CPU per request, which moves with the code far
 * less than throughput does with the other tenants of a shared machine.
 */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat; fields[0] here is field 3.
  const processMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  const [, ...times] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const busy = times.slice(0, 8).reduce((sum, t, i) => (i === 3 || i === 4 ? sum : sum + t), 0);
  return { processMs, machineMs: (busy * 1000) / TICKS_PER_S };
}
