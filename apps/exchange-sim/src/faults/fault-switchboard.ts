import type { Clock } from '../sim-clock.js';
import { coversPath, type FaultConfig, type FaultRule, parseFaultConfig } from './fault-config.js';
import { SeededRandom } from '../seed/seeded-random.js';

/** Faults injected so far, by kind, as `GET /__sim/stats` shows them under `faults`. */
export interface FaultCounts {
  latency: number;
  error500: number;
  rateLimited429: number;
  hang: number;
  ipNotAllowed521: number;
  droppedAfterProcess: number;
  answeredWithoutCode: number;
  refused: number;
}

export type FaultKind = keyof FaultCounts;

/** What the edge does with one request. */
export interface FaultDecision {
  /** Answer at the edge instead of processing; undefined lets the request through. */
  answer?: 'ipNotAllowed521' | 'rateLimited429' | 'hang' | 'error500' | 'answeredWithoutCode' | 'refused';
  /** The body of an `answeredWithoutCode` answer. */
  body?: string;
  /** The failure and message of a `refused` answer. */
  refusal?: FaultRule['refuse'];
  latencyMs: number;
  dropAfterProcess: boolean;
}

/** Used when `SimulatorOptions.seed` is not given, so runs repeat by default. */
export const DEFAULT_FAULT_SEED = 1;

/** The fault configuration in force, the seeded decision sequence and the count of faults injected. */
export class FaultSwitchboard {
  private current: FaultConfig = {};
  private setAt = 0;
  private seedInUse: number;
  private random: () => number;
  private readonly injected: FaultCounts = {
    latency: 0,
    error500: 0,
    rateLimited429: 0,
    hang: 0,
    ipNotAllowed521: 0,
    droppedAfterProcess: 0,
    answeredWithoutCode: 0,
    refused: 0,
  };

  constructor(
    private readonly clock: Clock,
    seed = DEFAULT_FAULT_SEED,
  ) {
    this.seedInUse = seed;
    this.random = seededDraws(seed);
  }

  /** The configuration in force, with `seed` set to the seed its decision sequence started from. */
  get config(): FaultConfig {
    return { ...structuredClone(this.current), seed: this.seedInUse };
  }

  /** Replaces the configuration (validated like `PUT /__sim/faults`); a `seed` in it restarts the sequence. */
  set(config: FaultConfig): FaultConfig {
    const parsed = parseFaultConfig(config);
    if (parsed.seed !== undefined) this.reseed(parsed.seed);
    delete parsed.seed;
    this.current = parsed;
    this.setAt = this.clock();
    return this.config;
  }

  /** No faults any more; the decision sequence goes on. */
  clear(): FaultConfig {
    this.current = {};
    return this.config;
  }

  reseed(seed: number): void {
    this.seedInUse = seed;
    this.random = seededDraws(seed);
  }

  /**
   * Decides one request. Every call takes three numbers from the sequence whatever the configuration, so the n-th
   * request of a run gets the same draws however the faults were switched in between.
   */
  decide(path: string, uid: string | undefined): FaultDecision {
    const [hang, error, drop] = [this.random(), this.random(), this.random()];
    const rule = this.ruleFor(uid);
    if (!coversPath(rule, path)) return { latencyMs: 0, dropAfterProcess: false };
    const latencyMs = rule.latencyMs ?? 0;
    if (rule.ipNotAllowed) return { answer: 'ipNotAllowed521', latencyMs, dropAfterProcess: false };
    if (rule.answerWithoutCode !== undefined) return { answer: 'answeredWithoutCode', body: rule.answerWithoutCode, latencyMs, dropAfterProcess: false };
    if (rule.refuse !== undefined) return { answer: 'refused', refusal: rule.refuse, latencyMs, dropAfterProcess: false };
    if (this.stormOn(rule)) return { answer: 'rateLimited429', latencyMs, dropAfterProcess: false };
    if (hang < (rule.hangRate ?? 0)) return { answer: 'hang', latencyMs: 0, dropAfterProcess: false };
    if (error < (rule.errorRate ?? 0)) return { answer: 'error500', latencyMs, dropAfterProcess: false };
    return { latencyMs, dropAfterProcess: drop < (rule.dropAfterProcessRate ?? 0) };
  }

  /** How far the signature check's clock is off the served time for this request (`clockSkewMs`), in ms. */
  clockSkewMs(path: string, uid: string | undefined): number {
    const rule = this.ruleFor(uid);
    return coversPath(rule, path) ? (rule.clockSkewMs ?? 0) : 0;
  }

  record(kind: FaultKind): void {
    this.injected[kind] += 1;
  }

  counts(): FaultCounts {
    return { ...this.injected };
  }

  private ruleFor(uid: string | undefined): FaultRule {
    return (uid !== undefined ? this.current.accounts?.[uid] : undefined) ?? this.current;
  }

  private stormOn(rule: FaultRule): boolean {
    const storm = rule.rateLimitStorm;
    if (typeof storm === 'object') return this.clock() < this.setAt + storm.durationMs;
    return storm === true;
  }
}

/** The fault decisions' number source: the seed data's PRNG, started from the seed itself. */
function seededDraws(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}
