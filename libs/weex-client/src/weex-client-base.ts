import type { RetryOptions } from './backoff.js';
import { type BudgetLimits, createMemoryWeightBudget, type WeightBudget, type WeightGrant } from '#libs/weight-budget';
import { HEAVIEST_WEIGHT } from './budget.js';
import type { OperationName } from './operations.js';
import type { CallOptions } from './types/common.types.js';
import { WeexRequestRunner } from './weex-request-runner.js';
import { type WeexCredentials, WeexTransport } from './weex-transport.js';

/** The budgets WEEX documented in one version of its docs: 500 weight per 10 s per IP and per UID. */
export const DEFAULT_BUDGET_LIMITS: BudgetLimits = {
  ip: { limit: 500, windowMs: 10_000 },
  uid: { limit: 500, windowMs: 10_000 },
  heaviest: HEAVIEST_WEIGHT,
};

export interface WeexClientOptions {
  /** Contract REST base URL, e.g. `https://api-contract.weex.com`. */
  baseUrl: string;
  /** Spot REST base URL (spot bills only), e.g. `https://api-spot.weex.com`. */
  spotBaseUrl: string;
  credentials: WeexCredentials;
  /** Per-request timeout in ms; default 10 000. */
  timeoutMs?: number;
  /**
   * The weight budget every call waits on, or a function that builds it from the client's clock (the exchange's
   * time as measured, to which budget windows align), e.g. `(now) => createRedisWeightBudget({ ..., limits: { ...limits, now } })`
   * to share one budget between processes using the same account. Default: in memory, {@link DEFAULT_BUDGET_LIMITS}.
   */
  budget?: WeightBudget | ((serverNow: () => number) => WeightBudget);
  /** Retries of reads; writes are never retried. */
  retry?: RetryOptions;
  /** Local clock, for tests; default `Date.now`. */
  now?: () => number;
}

/** Owns what every operation shares: the transport (signing, clock offset, timeouts), the budget and retries. */
export class WeexClientBase {
  readonly transport: WeexTransport;
  readonly budget: WeightBudget;
  protected readonly caller: WeexRequestRunner;

  constructor(options: WeexClientOptions) {
    const { baseUrl, spotBaseUrl, credentials, timeoutMs, now } = options;
    this.transport = new WeexTransport({ baseUrl, spotBaseUrl, credentials, timeoutMs, now });
    const serverNow = () => this.transport.serverNow();
    const { budget = (now) => createMemoryWeightBudget({ ...DEFAULT_BUDGET_LIMITS, now }) } = options;
    this.budget = typeof budget === 'function' ? budget(serverNow) : budget;
    this.caller = new WeexRequestRunner(this.transport, this.budget, options.retry, now);
  }

  /**
   * Waits for an operation's weight (and, before the first signed call, for the exchange's clock), so that the call
   * it is then given to (`CallOptions.weight`) is sent at once; give it back if that call is not made.
   */
  takeWeight(operation: OperationName, options: Pick<CallOptions, 'signal' | 'maxBudgetWaitMs'> = {}): Promise<WeightGrant> {
    return this.caller.prepare(operation, options);
  }
}
