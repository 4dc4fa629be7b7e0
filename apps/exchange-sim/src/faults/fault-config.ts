import { SimFailure } from '../errors.js';
import { invalid, rejectUnknownKeys, requireBoolean, requireInteger, requireObject, requireRate } from '../limits/config-checks.js';

/** Faults for one set of requests. Rates are shares from 0 to 1, decided per request by the seeded PRNG. */
export interface FaultRule {
  /** Delay in ms added before the answer is sent; the request itself is processed at once. */
  latencyMs?: number;
  /** Share of requests answered HTTP 500 `system error` without being processed. */
  errorRate?: number;
  /** Every request is answered 429 while on; with `durationMs`, only that long (simulator clock) after it was set. */
  rateLimitStorm?: boolean | { durationMs: number };
  /** Share of requests never answered: the socket stays open until the client gives up or the simulator closes. */
  hangRate?: number;
  /** Every request is answered HTTP 521 with an HTML page, as WEEX's edge answers an IP not on the allowlist. */
  ipNotAllowed?: boolean;
  /** Share of requests processed (an upload is recorded) whose connection is then destroyed without an answer. */
  dropAfterProcessRate?: number;
  /**
   * Every request is answered HTTP 200 with this body, unprocessed: an answer with no `code` (`{}`,
   * `{"success":false}`, `true`, an HTML page), as a proxy or a half-deployed edge might give.
   */
  answerWithoutCode?: string;
  /**
   * The signature check's clock runs this many ms ahead (negative: behind) of the time `/market/time` serves, so a
   * client that resyncs its clock still has its timestamps rejected: nodes of the exchange that disagree.
   */
  clockSkewMs?: number;
  /**
   * Every request is refused, unprocessed, with this failure of the simulator's table (its v3 or v2 code and HTTP
   * status) and message: a rule of the exchange's that a client cannot know before it is told.
   */
  refuse?: { failure: SimFailure; message: string };
  /** Only requests to these paths (query ignored; a trailing `*` matches a prefix); default every path. */
  paths?: string[];
}

/** The whole fault configuration, as `PUT /__sim/faults` takes it and `GET /__sim/faults` shows it. */
export interface FaultConfig extends FaultRule {
  /** Rules for requests whose ACCESS-KEY belongs to the UID, used instead of the global rule. */
  accounts?: Record<string, FaultRule>;
  /** Restarts the decision sequence from this seed (0 to 2^32 - 1). */
  seed?: number;
}

const RULE_KEYS = [
  'latencyMs',
  'errorRate',
  'rateLimitStorm',
  'hangRate',
  'ipNotAllowed',
  'dropAfterProcessRate',
  'answerWithoutCode',
  'clockSkewMs',
  'refuse',
  'paths',
];

/** Checks untrusted input and keeps only the fields given; throws a ParameterInvalid SimError. */
export function parseFaultConfig(input: unknown): FaultConfig {
  const fields = requireObject(input, 'faults');
  rejectUnknownKeys(fields, [...RULE_KEYS, 'accounts', 'seed'], 'faults');
  const config: FaultConfig = parseRule(fields, 'faults');
  if (fields.accounts !== undefined) {
    const accounts = Object.entries(requireObject(fields.accounts, 'accounts'));
    config.accounts = Object.fromEntries(accounts.map(([uid, rule]) => [uid, parseAccountRule(rule, uid)]));
  }
  if (fields.seed !== undefined) {
    config.seed = requireInteger(fields.seed, 'seed', 0);
    if (config.seed > 0xffff_ffff) throw invalid('seed must be at most 2^32 - 1');
  }
  return config;
}

function parseAccountRule(input: unknown, uid: string): FaultRule {
  const fields = requireObject(input, `accounts.${uid}`);
  rejectUnknownKeys(fields, RULE_KEYS, `accounts.${uid}`);
  return parseRule(fields, `accounts.${uid}`);
}

function parseRule(fields: Record<string, unknown>, name: string): FaultRule {
  const rule: FaultRule = {};
  const { latencyMs, errorRate, rateLimitStorm, hangRate, ipNotAllowed, dropAfterProcessRate, answerWithoutCode, clockSkewMs, refuse, paths } = fields;
  if (latencyMs !== undefined) rule.latencyMs = requireInteger(latencyMs, `${name}.latencyMs`, 0);
  if (errorRate !== undefined) rule.errorRate = requireRate(errorRate, `${name}.errorRate`);
  if (rateLimitStorm !== undefined) rule.rateLimitStorm = parseStorm(rateLimitStorm, `${name}.rateLimitStorm`);
  if (hangRate !== undefined) rule.hangRate = requireRate(hangRate, `${name}.hangRate`);
  if (ipNotAllowed !== undefined) rule.ipNotAllowed = requireBoolean(ipNotAllowed, `${name}.ipNotAllowed`);
  if (dropAfterProcessRate !== undefined) {
    rule.dropAfterProcessRate = requireRate(dropAfterProcessRate, `${name}.dropAfterProcessRate`);
  }
  if (answerWithoutCode !== undefined) {
    if (typeof answerWithoutCode !== 'string') throw invalid(`${name}.answerWithoutCode must be the body to answer, a string`);
    rule.answerWithoutCode = answerWithoutCode;
  }
  if (clockSkewMs !== undefined) {
    if (typeof clockSkewMs !== 'number' || !Number.isSafeInteger(clockSkewMs)) throw invalid(`${name}.clockSkewMs must be an integer`);
    rule.clockSkewMs = clockSkewMs;
  }
  if (refuse !== undefined) rule.refuse = parseRefusal(refuse, `${name}.refuse`);
  if (paths !== undefined) {
    if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string' && p.startsWith('/'))) {
      throw invalid(`${name}.paths must be an array of paths starting with /`);
    }
    rule.paths = [...paths];
  }
  return rule;
}

function parseStorm(value: unknown, name: string): boolean | { durationMs: number } {
  if (typeof value === 'boolean') return value;
  const fields = requireObject(value, name);
  rejectUnknownKeys(fields, ['durationMs'], name);
  return { durationMs: requireInteger(fields.durationMs, `${name}.durationMs`, 1) };
}

/** Whether a rule covers a path. */
export function coversPath(rule: FaultRule, path: string): boolean {
  if (rule.paths === undefined) return true;
  return rule.paths.some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : p === path));
}

const FAILURES = new Set<string>(Object.values(SimFailure));

function parseRefusal(input: unknown, name: string): { failure: SimFailure; message: string } {
  const fields = requireObject(input, name);
  rejectUnknownKeys(fields, ['failure', 'message'], name);
  if (typeof fields.failure !== 'string' || !FAILURES.has(fields.failure)) throw invalid(`${name}.failure must be one of ${[...FAILURES].join(', ')}`);
  if (typeof fields.message !== 'string') throw invalid(`${name}.message must be a string`);
  return { failure: fields.failure as SimFailure, message: fields.message };
}
