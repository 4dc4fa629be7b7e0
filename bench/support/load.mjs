import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { WARMUP_S } from '../settings.mjs';

/**
 * Runs autocannon against one endpoint for `warmupS` (default WARMUP_S), then for `durationS`, and reduces the second
 * run to what the report needs. Throughput counts only answers with the expected status, over the measured duration;
 * `warmupOk` is how many answers of the warm-up had that status.
 */
export async function cannon({ url, method = 'POST', headers = {}, body, connections, durationS, expectStatus, warmupS = WARMUP_S }) {
  const run = (duration) =>
    autocannon({
      url,
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body,
      connections,
      duration,
      // Slow answers are part of the result, not errors: only a stuck request should time out.
      timeout: 30,
    });
  const statusesOf = (result) => Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]));
  const warmup = warmupS > 0 ? statusesOf(await run(warmupS)) : {};
  const measuredFrom = Date.now();
  const result = await run(durationS);
  const statuses = statusesOf(result);
  const ok = statuses[String(expectStatus)] ?? 0;
  return {
    warmupS,
    warmupOk: warmup[String(expectStatus)] ?? 0,
    warmupStatuses: warmup,
    measuredFrom,
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
 * A closed loop of `concurrency` callers, each awaiting its call back to back (timed with performance.now()), for
 * each of `calls` (name → call) in turn, `sliceS` at a time, until each has run `durationS`: the same harness for
 * every side of a comparison, so that client costs cancel out, and every side meets the same moments of a machine
 * whose speed drifts. Each side is warmed up first for `warmupS`, not counted. A call that answers a number (a part of
 * itself it timed, such as a stream's first token) is recorded as that many milliseconds.
 */
export async function alternatingLoops({ calls, concurrency, durationS, sliceS = 1, warmupS = 1 }) {
  const sides = Object.entries(calls).map(([name, call]) => ({ name, call, latencies: [], errors: 0, firstError: undefined, seconds: 0 }));
  for (const side of sides) await drive(side.call, concurrency, warmupS);
  for (let done = 0; done < durationS; done += sliceS) {
    for (const side of sides) {
      const started = performance.now();
      const { errors, firstError } = await drive(side.call, concurrency, Math.min(sliceS, durationS - done), side.latencies);
      side.seconds += (performance.now() - started) / 1000;
      side.errors += errors;
      side.firstError ??= firstError;
    }
  }
  return Object.fromEntries(sides.map((side) => [side.name, summarise(side.latencies, side, side.seconds)]));
}

async function drive(call, concurrency, seconds, latencies) {
  const end = performance.now() + seconds * 1000;
  let errors = 0;
  let firstError;
  const caller = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      try {
        // A call may time a part of itself (a stream's first token) and answer that instead.
        const measured = await call();
        latencies?.push(typeof measured === 'number' ? measured : performance.now() - started);
      } catch (error) {
        errors += 1;
        firstError ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return { errors, firstError };
}

function summarise(latencies, { errors, firstError }, seconds) {
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
  const others = (statuses) =>
    Object.entries(statuses)
      .filter(([code]) => code !== String(expected))
      .map(([code, n]) => `${n} × ${code}`);
  const warmup = others(load.warmupStatuses ?? {});
  const parts = [
    ...others(load.statuses),
    load.errors ? `${load.errors} connection errors` : '',
    warmup.length ? `${warmup.join(', ')} during warm-up` : '',
  ].filter(Boolean);
  return parts.length ? `(also ${parts.join(', ')})` : '(no other answers)';
}

/** "50 connections, 3 s of warm-up (15,000 × 202), then 10.0 s: " */
export function loadHeading(load, expected) {
  const warmup = load.warmupS > 0 ? `${load.warmupS} s of warm-up (${load.warmupOk} × ${expected}, not in the figures), then ` : '';
  return `${load.connections} connections, ${warmup}${load.durationS.toFixed(1)} s`;
}
