import { invalid, rejectUnknownKeys, requireInteger, requireObject } from './config-checks.js';

/** Weight budgets as `SimulatorOptions.budgets` or `PUT /__sim/budgets` give them; missing fields take the default. */
export interface BudgetOptions {
  /** Weight one caller IP may spend per window; default 500 (WEEX has documented 500 and, later, 1000 per 10 s). */
  ipLimit?: number;
  /** Weight one account (UID) may spend per window; default 500. */
  uidLimit?: number;
  /** Window length in ms of the simulator clock; default 10 000. */
  windowMs?: number;
  /**
   * `fixed` (default): window n covers [n × windowMs, (n + 1) × windowMs). `sliding`: no span of windowMs ever holds
   * more than the limit, as an exchange that limits on a sliding window (whether WEEX does is not known).
   */
  window?: 'fixed' | 'sliding';
  /** Per-account overrides of `uidLimit`, keyed by UID. */
  accounts?: Record<string, { uidLimit: number }>;
}

/** The budgets in force: every field set. */
export type BudgetConfig = Required<BudgetOptions>;

export const DEFAULT_BUDGETS: Readonly<BudgetConfig> = { ipLimit: 500, uidLimit: 500, windowMs: 10_000, window: 'fixed', accounts: {} };

/** Checks untrusted input (a PUT body or in-process options) and fills in defaults; throws ParameterInvalid. */
export function parseBudgetConfig(input: unknown): BudgetConfig {
  const options = requireObject(input, 'budgets');
  rejectUnknownKeys(options, ['ipLimit', 'uidLimit', 'windowMs', 'window', 'accounts'], 'budgets');
  const window = options.window ?? DEFAULT_BUDGETS.window;
  if (window !== 'fixed' && window !== 'sliding') throw invalid("window must be 'fixed' or 'sliding'");
  const accounts: Record<string, { uidLimit: number }> = {};
  for (const [uid, override] of Object.entries(requireObject(options.accounts ?? {}, 'accounts'))) {
    const fields = requireObject(override, `accounts.${uid}`);
    rejectUnknownKeys(fields, ['uidLimit'], `accounts.${uid}`);
    accounts[uid] = { uidLimit: requireInteger(fields.uidLimit, `accounts.${uid}.uidLimit`, 0) };
  }
  return {
    ipLimit: requireInteger(options.ipLimit ?? DEFAULT_BUDGETS.ipLimit, 'ipLimit', 0),
    uidLimit: requireInteger(options.uidLimit ?? DEFAULT_BUDGETS.uidLimit, 'uidLimit', 0),
    windowMs: requireInteger(options.windowMs ?? DEFAULT_BUDGETS.windowMs, 'windowMs', 1),
    window,
    accounts,
  };
}
