// Every knob of the benchmark in one place; the environment overrides the durations for quick runs.

/** Seconds of load per scenario (BENCH_DURATION_S, default 10). */
export const DURATION_S = positive(process.env.BENCH_DURATION_S, 10);

/**
 * Seconds of the same load run before each autocannon measurement and left out of its figures (BENCH_WARMUP_S,
 * default 3): JIT compilation and the first growth of tables and heaps are start-up, not steady state. Its answers are
 * still counted where rows and jobs are checked against answers.
 */
export const WARMUP_S = positive(process.env.BENCH_WARMUP_S, 3);

/** Logs posted before the worker starts in the upload-budget scenario (BENCH_UPLOAD_LOGS, default 400: 4+ windows). */
export const UPLOAD_LOGS = positive(process.env.BENCH_UPLOAD_LOGS, 400);

/**
 * The Redis stall scenario: single-log requests a second, seconds before, during and after the stall (BENCH_STALL_S,
 * default 75, as issue 15 states the target), and how long one request may take before the client gives up.
 */
export const STALL = { rate: 20, beforeS: 10, stallS: positive(process.env.BENCH_STALL_S, 75), afterS: 10, requestTimeoutS: 60 };

export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Seconds a process is left alone before its RSS at rest is read (scenario 4). */
export const REST_S = positive(process.env.BENCH_REST_S, 15);

/** Connections of the single-log ingest scenarios (2, 4, 7), as the targets are stated. */
export const INGEST_CONNECTIONS = 50;
/** Batch scenario: 100 logs per request; fewer connections, since each request already carries 100 logs. */
export const BATCH_CONNECTIONS = 10;
export const BATCH_SIZE = 100;
/** Query scenario: few callers, so that the latencies show our overhead rather than queueing on 2 cores. */
export const QUERY_CONCURRENCY = 5;
export const QUERY_SIM_LATENCY_MS = 20;
/** Upload scenario: the simulator's and the gateway's UID budget. */
export const UPLOAD_BUDGET = { uidLimit: 100, windowMs: 10_000 };

/**
 * Fairness scenario: account B's backlog (BENCH_FAIR_BACKLOG, default 20,000 logs, posted in batches of 500) and
 * account A's logs, one a second (BENCH_FAIR_LOGS, default 90: 8 whole windows or more, so that where B's bursts fall
 * in them moves the share little), on 2 API and 3 worker processes, with the deployment's default budgets (500 per
 * 10 s per account, and 500 per 10 s for the IP they share).
 */
export const FAIRNESS = {
  backlog: positive(process.env.BENCH_FAIR_BACKLOG, 20_000),
  batch: 500,
  aLogs: positive(process.env.BENCH_FAIR_LOGS, 90),
  apis: 2,
  workers: 3,
  limit: 500,
  windowMs: 10_000,
};

/**
 * Growth scenario (9), read when it runs: one account grown to BENCH_GROWTH_LOGS logs (default 1,000,000) in steps at
 * a tenth, a quarter, a half and all of it, in batches of 500; BENCH_GROWTH_ORDERS orders (default 1,000) in the
 * simulator's last 6 days, each named by one of the first logs. Each step's drain is read in slices of
 * BENCH_GROWTH_SLICE_S (default 10) for at most BENCH_GROWTH_DRAIN_S (default 600; what is left waits into the next
 * step). Coverage and the report are given up after BENCH_GROWTH_CALL_LIMIT_S (default 120) and not asked again at
 * later steps. BENCH_GROWTH_READS reads of each kind (default 100); BENCH_GROWTH_JSON where the figures go (default
 * <tmpdir>/growth-<time>.json).
 */
export function growthSettings() {
  const logs = Math.round(positive(process.env.BENCH_GROWTH_LOGS, 1_000_000));
  const steps = [...new Set([0.1, 0.25, 0.5, 1].map((f) => Math.max(1, Math.round(logs * f))))];
  return {
    logs,
    steps,
    orders: Math.min(Math.round(positive(process.env.BENCH_GROWTH_ORDERS, 1_000)), steps[0]),
    batch: 500,
    connections: 4,
    sliceS: positive(process.env.BENCH_GROWTH_SLICE_S, 10),
    drainCapS: positive(process.env.BENCH_GROWTH_DRAIN_S, 600),
    callLimitS: positive(process.env.BENCH_GROWTH_CALL_LIMIT_S, 120),
    reads: Math.round(positive(process.env.BENCH_GROWTH_READS, 100)),
    json: process.env.BENCH_GROWTH_JSON,
  };
}

/**
 * How the simulator counts weight in the scenarios that spend a budget (6 and 8): `fixed` windows aligned to its clock
 * (default) or `sliding` ones (BENCH_SIM_WINDOW). Whether WEEX slides is not known; the gateway must hold on both.
 */
export const SIM_WINDOW = process.env.BENCH_SIM_WINDOW === 'sliding' ? 'sliding' : 'fixed';
/** The simulator's budget setting for SIM_WINDOW: nothing for fixed windows, its default (and all a simulator before sliding windows knows). */
export const simWindow = () => (SIM_WINDOW === 'sliding' ? { window: 'sliding' } : {});

/** The sandbox account of the simulator (apps/exchange-sim/src/sim-accounts.ts). */
export const SANDBOX_UID = '8000000001';

/** Targets of issue 8. */
export const TARGETS = {
  ingestLogsPerS: 5_000,
  ingestP99Ms: 25,
  batchLogsPerS: 15_000,
  /** Issue 27: OTLP ingest of 1,000-span protobuf requests. */
  otlpSpansPerS: 5_000,
  embeddedLogsPerS: 1_000,
  /** `npm start` (issue 16): RSS at rest, and from a fresh clone's `npm install` to the first 202. */
  embeddedRestRssMb: 250,
  embeddedFirstLogS: 15,
  queryOverheadP50Ms: 2,
  /** Issue 27: what the model-call proxy adds to a whole answer, and to a stream's first token, at p50. */
  llmOverheadP50Ms: 2,
  llmFirstTokenOverheadP50Ms: 1,
  budgetShare: 0.95,
  fairUploadP99Ms: 2_000,
  apiRssMb: 200,
  workerRssMb: 150,
  /** Issue 23: coverage of a 7-day window with 1,000 orders over 1M logs; every drain slice within a fifth of the best. */
  growthCoverageMs: 1_000,
  growthDrainSteadiness: 0.8,
};

function positive(text, fallback) {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
