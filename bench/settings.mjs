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

export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

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

/** The sandbox account of the simulator (apps/exchange-sim/src/sim-accounts.ts). */
export const SANDBOX_UID = '8000000001';

/** Targets of issue 8. */
export const TARGETS = {
  ingestLogsPerS: 5_000,
  ingestP99Ms: 25,
  batchLogsPerS: 15_000,
  embeddedLogsPerS: 1_000,
  queryOverheadP50Ms: 2,
  budgetShare: 0.95,
  apiRssMb: 200,
  workerRssMb: 150,
};

function positive(text, fallback) {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
