import { exchangeRule, FAULT_KINDS } from './fault-schedule.mjs';
import { sleep } from './processes.mjs';

const SLOW_START_MS = 20_000;

/**
 * Plays a fault schedule against a FaultCluster: each event starts at its moment of the load, whatever the others are
 * doing, and records what it did (which process, when) in `log`. `stop` waits for the events under way to end and
 * brings everything back up.
 */
export class FaultInjector {
  log = [];
  #timers = [];
  #running = new Set();
  #exchangeKinds = [];
  #exchangeWrites = Promise.resolve();
  #switches = 0;

  /** `baseRule`: the exchange's behaviour outside faults (a latency), kept under them and after `stop`. */
  constructor(cluster, seed, onNote = () => {}, baseRule = {}) {
    this.cluster = cluster;
    this.seed = seed;
    this.onNote = onNote;
    this.baseRule = baseRule;
  }

  async start(events) {
    this.startedAt = Date.now();
    for (const event of events) {
      this.#timers.push(
        setTimeout(() => {
          const run = this.#play(event).catch((error) => this.#note(event, `failed: ${error.message}`));
          this.#running.add(run);
          run.finally(() => this.#running.delete(run));
        }, event.atMs),
      );
    }
    await this.#writeExchangeRule();
  }

  async stop() {
    for (const timer of this.#timers) clearTimeout(timer);
    await Promise.all([...this.#running]);
    await this.#exchangeWrites.catch(() => {});
    this.#exchangeKinds = [];
    await this.#writeExchangeRule();
    await this.cluster.restoreAll();
  }

  #note(event, detail, output) {
    const entry = { atS: Number(((Date.now() - this.startedAt) / 1000).toFixed(1)), kind: event.kind, detail, ...(output && { output }) };
    this.log.push(entry);
    this.onNote(entry);
  }

  async #play(event) {
    const { cluster } = this;
    const { kind, forMs } = event;
    switch (kind) {
      case 'api-kill':
      case 'worker-kill': {
        const list = kind === 'api-kill' ? cluster.apis : cluster.workers;
        const victim = pick(list, event.target);
        if (!victim) return this.#note(event, 'skipped: none is serving');
        await victim.kill();
        this.#note(event, `SIGKILL ${victim.name}`);
        await sleep(forMs);
        return this.#restart(event, victim);
      }
      case 'redis-kill':
        await cluster.redis.kill();
        this.#note(event, 'SIGKILL redis');
        await sleep(forMs);
        await cluster.redis.start();
        return this.#note(event, 'redis restarted, empty');
      case 'redis-stall':
        cluster.redis.pause();
        this.#note(event, 'SIGSTOP redis');
        await sleep(forMs);
        cluster.redis.resume();
        return this.#note(event, 'SIGCONT redis');
      case 'stall-kill':
        return this.#stallKill(event);
      default:
        return this.#exchangeFault(event);
    }
  }

  /** Requests that committed while Redis is stalled wait for their enqueue; the API dies before it answers them. */
  async #stallKill(event) {
    const { cluster } = this;
    cluster.redis.pause();
    this.#note(event, 'SIGSTOP redis');
    await sleep(2_000);
    const victim = pick(cluster.apis, event.target);
    if (victim) {
      await victim.kill();
      this.#note(event, `SIGKILL ${victim.name}`);
    }
    await sleep(Math.max(1_000, event.forMs - 4_000));
    cluster.redis.resume();
    this.#note(event, 'SIGCONT redis');
    await sleep(Math.min(2_000, event.forMs - 3_000));
    if (victim) await this.#restart(event, victim);
  }

  async #restart(event, victim) {
    const started = Date.now();
    await victim.restart();
    const tookMs = Date.now() - started;
    const took = victim.url ? ` (answering HTTP after ${(tookMs / 1000).toFixed(1)} s)` : '';
    // A slow or failed start keeps the process's last output in the JSON report, to see what it waited for.
    const output = !victim.serving || tookMs > SLOW_START_MS ? victim.process.output.slice(-4_000) : undefined;
    this.#note(event, `${victim.name} ${victim.running ? 'restarted' : 'failed to restart'}${took}`, output);
  }

  async #exchangeFault(event) {
    this.#exchangeKinds.push(event.kind);
    await this.#writeExchangeRule();
    this.#note(event, `on: ${JSON.stringify(FAULT_KINDS[event.kind].rule)}`);
    await sleep(event.forMs);
    this.#exchangeKinds.splice(this.#exchangeKinds.indexOf(event.kind), 1);
    await this.#writeExchangeRule();
    this.#note(event, 'off');
  }

  /** One write at a time, in order: the simulator holds one rule, made of every exchange fault on at that moment. */
  #writeExchangeRule() {
    const kinds = [...this.#exchangeKinds];
    const seed = (this.seed + ++this.#switches) >>> 0;
    this.#exchangeWrites = this.#exchangeWrites
      .catch(() => {})
      .then(() =>
        kinds.length || Object.keys(this.baseRule).length
          ? this.cluster.sim.control('PUT', '/__sim/faults', { ...this.baseRule, ...exchangeRule(kinds, seed) })
          : this.cluster.sim.control('DELETE', '/__sim/faults'),
      );
    return this.#exchangeWrites;
  }
}

/** The serving process that `target` (a draw in [0, 1)) designates, counting from it round the list. */
function pick(list, target) {
  const start = Math.floor(target * list.length);
  for (let i = 0; i < list.length; i++) {
    const candidate = list[(start + i) % list.length];
    if (candidate.serving) return candidate;
  }
  return undefined;
}
