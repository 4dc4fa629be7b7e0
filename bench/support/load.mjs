import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

/**
 * Runs autocannon against one endpoint for `durationS` and reduces its result to what the report needs. Throughput
 * counts only answers with the expected status, over the measured duration.
 */
export async function cannon({ url, method = 'POST', headers = {}, body, connections, durationS, expectStatus }) {
  const result = await autocannon({
    url,
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
    connections,
    duration: durationS,
    // Slow answers are part of the result, not errors: only a stuck request should time out.
    timeout: 30,
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]));
  const ok = statuses[String(expectStatus)] ?? 0;
  return {
    ok,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    durationS: result.duration,
    perSecond: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    connections,
  };
}

/**
 * A closed loop of `concurrency` callers, each awaiting `call()` back to back, timed with performance.now(); the
 * same harness for both sides of a comparison, so that client costs cancel out. `warmupS` is run and discarded.
 */
export async function closedLoop({ call, concurrency, durationS, warmupS = 1 }) {
  const run = async (seconds, latencies) => {
    const end = performance.now() + seconds * 1000;
    let errors = 0;
    let firstError;
    const caller = async () => {
      while (performance.now() < end) {
        const started = performance.now();
        try {
          await call();
          latencies?.push(performance.now() - started);
        } catch (error) {
          errors += 1;
          firstError ??= error;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, caller));
    return { errors, firstError };
  };
  await run(warmupS);
  const latencies = [];
  const started = performance.now();
  const { errors, firstError } = await run(durationS, latencies);
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    errors,
    firstError: firstError && String(firstError.message ?? firstError),
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

function percentile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** "(also 3 × 500, 2 errors)": every answer that was not the expected one, for the report's details. */
export function otherStatuses(load, expected) {
  const others = Object.entries(load.statuses).filter(([code]) => code !== String(expected));
  const parts = [...others.map(([code, n]) => `${n} × ${code}`), load.errors ? `${load.errors} connection errors` : ''].filter(Boolean);
  return parts.length ? `(also ${parts.join(', ')})` : '(no other answers)';
}
