// The faults of `npm run fault-run`: what each kind does, and a schedule drawn from a seed, so that the same seed,
// duration and fault list give the same faults at the same moments of the load.

/** A PRNG of 32-bit state (mulberry32): the same seed gives the same sequence on every machine. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Each kind of fault: how often it comes by default (one per `everyS` of load), how long it lasts by default
 * (`forMs`: down, stalled or on), and the resource it holds. Faults on Redis never overlap one another (a Redis cannot be stalled while it is dead); the
 * exchange's faults add up while they overlap; processes are killed whatever else is going on.
 */
export const FAULT_KINDS = {
  'api-kill': { everyS: 20, forMs: 2_000, group: 'process', what: 'SIGKILL an API, restart it after 2 s' },
  'worker-kill': { everyS: 15, forMs: 1_000, group: 'process', what: 'SIGKILL a worker, restart it after 1 s' },
  'redis-kill': { everyS: 60, forMs: 3_000, group: 'redis', what: 'SIGKILL Redis, restart it empty after 3 s' },
  'redis-stall': { everyS: 60, forMs: 8_000, group: 'redis', what: 'SIGSTOP Redis for 8 s, then SIGCONT' },
  'stall-kill': {
    everyS: 60,
    forMs: 8_000,
    minMs: 4_000,
    group: 'redis',
    what: 'SIGSTOP Redis, SIGKILL an API 2 s later (requests committed, not answered), SIGCONT 2 s before the end (8 s), API restarted at the end',
  },
  storm: { everyS: 40, forMs: 5_000, group: 'exchange', what: 'exchange answers 429 to everything for 5 s', rule: { rateLimitStorm: true } },
  '5xx': { everyS: 40, forMs: 6_000, group: 'exchange', what: 'exchange answers half its requests 500 for 6 s', rule: { errorRate: 0.5 } },
  'lost-answers': {
    everyS: 40,
    forMs: 8_000,
    group: 'exchange',
    what: 'exchange records 30% of uploads, then drops the connection unanswered, for 8 s',
    rule: { dropAfterProcessRate: 0.3 },
  },
  timeouts: { everyS: 60, forMs: 8_000, group: 'exchange', what: 'exchange never answers 20% of requests, for 8 s', rule: { hangRate: 0.2 } },
};

/** No fault in the first seconds (the load settles) nor in the last ones (every fault is over when the load ends). */
const QUIET_START_MS = 5_000;
const QUIET_END_MS = 3_000;

/**
 * `all`, `none`, or a comma list of `kind[:count[:seconds]]`: a kind without a count comes once per `everyS` seconds
 * of load (at least once); `seconds` changes how long each lasts (`redis-stall:1:75` stalls Redis once for 75 s).
 * Returns `{ kind: { count, forMs } }`.
 */
export function parseFaults(text, durationS) {
  if (text === 'none' || text === '') return {};
  const items = text === 'all' ? Object.keys(FAULT_KINDS) : text.split(',').map((s) => s.trim());
  const faults = {};
  for (const item of items) {
    const [kind, count, seconds] = item.split(':');
    if (!(kind in FAULT_KINDS)) throw new Error(`unknown fault "${kind}"; known: ${Object.keys(FAULT_KINDS).join(', ')}, or all, none`);
    const n = count === undefined || count === '' ? Math.max(1, Math.round(durationS / FAULT_KINDS[kind].everyS)) : Number(count);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--faults: "${item}" needs a whole number of events`);
    const forMs = seconds === undefined ? FAULT_KINDS[kind].forMs : Number(seconds) * 1000;
    if (!(forMs >= (FAULT_KINDS[kind].minMs ?? 0) && forMs > 0)) {
      throw new Error(`--faults: "${item}" needs a duration of at least ${(FAULT_KINDS[kind].minMs ?? 1) / 1000} s`);
    }
    faults[kind] = { count: n, forMs };
  }
  return faults;
}

/**
 * The events of a run, in order of start: each kind's events are spread over the load, one in each equal slice of
 * it at a seeded moment within the slice; then Redis faults that would overlap are pushed later, and any that no
 * longer fits before the quiet end is dropped (and listed as such).
 */
export function planFaults({ seed, durationMs, faults }) {
  const random = seededRandom(seed);
  const events = [];
  for (const [kind, { count, forMs }] of Object.entries(faults)) {
    const from = QUIET_START_MS;
    const to = durationMs - QUIET_END_MS - forMs;
    if (count === 0) continue;
    if (to <= from) throw new Error(`--duration is too short for ${kind} (lasts ${forMs / 1000} s, needs ${(QUIET_START_MS + QUIET_END_MS + forMs) / 1000} s)`);
    const slice = (to - from) / count;
    for (let i = 0; i < count; i++) {
      events.push({ kind, atMs: Math.round(from + slice * (i + random())), forMs, target: random() });
    }
  }
  events.sort((a, b) => a.atMs - b.atMs || a.kind.localeCompare(b.kind));
  const dropped = [];
  let redisFreeAt = 0;
  const kept = events.filter((event) => {
    if (FAULT_KINDS[event.kind].group !== 'redis') return true;
    event.atMs = Math.max(event.atMs, redisFreeAt);
    if (event.atMs + event.forMs > durationMs - QUIET_END_MS) {
      dropped.push(event.kind);
      return false;
    }
    redisFreeAt = event.atMs + event.forMs + 1_000;
    return true;
  });
  return { events: kept.sort((a, b) => a.atMs - b.atMs), dropped };
}

/** The exchange's fault rule while these exchange faults are on: each switched-on fault at its strongest. */
export function exchangeRule(activeKinds, seed) {
  const rule = {};
  for (const kind of activeKinds) {
    for (const [key, value] of Object.entries(FAULT_KINDS[kind].rule)) {
      rule[key] = typeof value === 'number' ? Math.max(rule[key] ?? 0, value) : value;
    }
  }
  return { ...rule, seed };
}
