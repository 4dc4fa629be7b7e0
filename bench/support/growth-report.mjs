// What the growth scenario (9) reports: two tables with a row per step, the details, and the targets of issue 23.
import { TARGETS } from '../settings.mjs';
import { int, mb, ms } from './format.mjs';
import { percentiles } from './growth-measure.mjs';

/** The drain's slices that ran whole (the last is cut short when the backlog empties), and the worst against the best. */
export function drainSlices(step, sliceS) {
  const full = step.drain.slices.filter((s) => s.seconds >= sliceS * 0.9).map((s) => s.rate);
  const sorted = [...full].sort((a, b) => a - b);
  return {
    full,
    min: sorted[0] ?? NaN,
    median: sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN,
    max: sorted.at(-1) ?? NaN,
    steadiness: sorted.length >= 2 ? sorted[0] / sorted.at(-1) : NaN,
  };
}

/**
 * Whether the audit check (which runs in the worker process) is what slows the drain: the median rate of the half of
 * the drain's whole slices in which its runs took the most time, and of the other half. A run every 10 s overlaps
 * every slice, so the split is by how much of each slice the runs took.
 */
function besideChecks(step, sliceS) {
  const runs = step.checkRuns.runs ?? [];
  const whole = step.drain.slices.filter((s) => s.seconds >= sliceS * 0.9);
  const end = (s) => s.at + s.seconds * 1000;
  const share = (s) => runs.reduce((sum, r) => sum + Math.max(0, Math.min(r.at + r.ms, end(s)) - Math.max(r.at, s.at)), 0) / (s.seconds * 1000);
  const byShare = whole.map((s) => ({ rate: s.rate, share: share(s) })).sort((a, b) => a.share - b.share);
  const median = (list, key) => percentiles(list.map((s) => s[key])).p50;
  const [less, more] = [byShare.slice(0, Math.floor(byShare.length / 2)), byShare.slice(Math.floor(byShare.length / 2))];
  if (less.length === 0) return 'too few slices to compare those with more audit check time';
  if (median(less, 'share') === median(more, 'share')) return `the audit check took the same share of every slice`;
  const pct = (x) => `${Math.round(x * 100)}%`;
  return (
    `${int(median(more, 'rate'))} uploads/s in the ${more.length} slices with the most audit check time (median ${pct(median(more, 'share'))} of the slice), ` +
    `${int(median(less, 'rate'))} in the other ${less.length} (median ${pct(median(less, 'share'))})`
  );
}

/** The mean rate over each tenth of the drain's slices (fewer groups for a short drain): a slowdown reads left to right. */
function byTenth(rates) {
  const groups = Math.min(10, rates.length);
  return Array.from({ length: groups }, (_, g) => {
    const part = rates.slice(Math.floor((g * rates.length) / groups), Math.floor(((g + 1) * rates.length) / groups));
    return Math.round(part.reduce((a, b) => a + b, 0) / part.length);
  });
}

const pair = (p) => `${ms(p.p50)} / ${ms(p.p99)}`;
/** A call that may have been cut off (coverage, report): its time, or why there is none. */
const limited = (call, limitS) => (call.skipped ? 'not asked' : call.cutOff ? `> ${limitS} s (cut off)` : ms(call.ms));
const mib = (bytes) => `${(bytes / 1024 ** 2).toFixed(bytes < 10 * 1024 ** 2 ? 2 : 0)} MB`;

export function growthResult({ settings, autovacuum, steps, json }) {
  const last = steps.at(-1);
  const drains = steps.map((s) => drainSlices(s, settings.sliceS));
  const apiPeak = Math.max(...steps.map((s) => s.apiPeakMb));
  const workerPeak = Math.max(...steps.map((s) => s.workerPeakMb));
  const lastDrain = drains.at(-1);
  const steady = drains.every((d) => !(d.steadiness < TARGETS.growthDrainSteadiness));
  const apiPhase = Object.entries(steps.find((s) => s.apiPeakMb === apiPeak).phases).sort((a, b) => b[1].apiMb - a[1].apiMb)[0][0];

  const table = [
    `Steps of one account's growth (settings: ${int(settings.logs)} logs, ${int(settings.orders)} orders, drain slices of ${settings.sliceS} s; autovacuum ${autovacuum}):`,
    '',
    '| logs | ingest | pause / resume | backlog | drain: mean; slices min / median / max | worst / best slice | log by id p50 / p99 | head p50 / p99 | evidence p50 / p99 |',
    '|---:|---:|---:|---:|---|---:|---:|---:|---:|',
    ...steps.map((s, i) => {
      const d = drains[i];
      const drain = `${int(s.drain.rate)}; ${int(d.min)} / ${int(d.median)} / ${int(d.max)} uploads/s${s.drain.left ? ` (${int(s.drain.left)} left)` : ''}`;
      return `| ${int(s.logs)} | ${int(s.ingest.rate)} logs/s | ${ms(s.pauseMs)} / ${ms(s.resumeMs)} | ${int(s.drain.backlog)} | ${drain} | ${pct(d.steadiness)} | ${pair(s.reads.logById)} | ${pair(s.reads.head)} | ${pair(s.reads.evidence)} |`;
    }),
    '',
    '| logs | coverage (median of 3) | report | export | verify | audit check runs: median / max (runs) | API peak (phase) | worker peak | ai_logs: size, dead rows, autovacuums |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...steps.map((s) => {
      const peakPhase = Object.entries(s.phases).sort((a, b) => b[1].apiMb - a[1].apiMb)[0][0];
      const t = s.tables.ai_logs ?? {};
      return (
        `| ${int(s.logs)} | ${limited(s.coverage, settings.callLimitS)} | ${limited(s.report, settings.callLimitS)}${Number.isFinite(s.report.bytes) ? `, ${mib(s.report.bytes)}` : ''} | ${(s.export.ms / 1000).toFixed(1)} s, ${mib(s.export.bytes)} | ${ms(s.verify.ms)} | ` +
        `${ms(s.checkRuns.p50)} / ${ms(s.checkRuns.max)} (${s.checkRuns.n}) | ${mb(s.apiPeakMb)} (${peakPhase}) | ${mb(s.workerPeakMb)} | ${mib(t.bytes)}, ${int(t.dead)}, ${int(t.autovacuums)} |`
      );
    }),
  ].join('\n');

  const details = [
    `one account grown to ${int(settings.logs)} logs of about 1.2 KB in steps (${settings.steps.map(int).join(', ')}), posted in batches of ${settings.batch} from ${settings.connections} connections ` +
      `while its uploads were paused; then resumed and drained for at most ${int(settings.drainCapS)} s (what is left waits into the next step); coverage and the report given up after ${settings.callLimitS} s; ${int(settings.orders)} filled orders seeded in the simulator over the last 6 days, ` +
      `each named by one of the first logs, the other logs naming no order; one start:api and one start:worker process, on a PostgreSQL server of the scenario's own (autovacuum ${autovacuum}); ` +
      `exchange budgets far beyond the drain's pace, so the drain is bound by the gateway`,
    ...steps.map((s, i) => {
      const d = drains[i];
      const phases = Object.entries(s.phases)
        .map(([name, p]) => `${name} ${p.seconds.toFixed(0)} s, API ${mb(p.apiMb)}, worker ${mb(p.workerMb)}`)
        .join('; ');
      const tables = Object.entries(s.tables)
        .map(
          ([name, t]) =>
            `${name} ${mib(t.bytes)}, ${int(t.live)} live and ${int(t.dead)} dead rows, ${t.autovacuums} autovacuums, ${t.autoanalyzes} autoanalyzes`,
        )
        .join('; ');
      return (
        `at ${int(s.logs)} logs (step of ${s.seconds.toFixed(0)} s): ingest ${int(s.ingest.logs)} logs in ${s.ingest.seconds.toFixed(1)} s; ` +
        `drain of ${int(s.drain.backlog)} in ${s.drain.seconds.toFixed(0)} s, ${int(s.drain.uploads)} uploads accepted, ${int(s.drain.left)} left; uploads/s by tenth of the drain's whole slices: ${byTenth(d.full).join(' ') || 'n/a'}; ${besideChecks(s, settings.sliceS)}; ` +
        (s.coverage.orders
          ? `coverage runs ${s.coverage.times.map(ms).join(', ')}: orders ${s.coverage.orders.covered} of ${s.coverage.orders.total} covered, ${s.coverage.fills.covered} of ${s.coverage.fills.total} fills, ${int(s.coverage.unmatchedLogsTotal)} unmatched logs; `
          : `coverage ${limited(s.coverage, settings.callLimitS)}; `) +
        `export ${int(s.export.lines)} lines; verify ok ${s.verify.ok}, complete ${s.verify.complete}, logs verified to seq ${s.verify.logs}, receipts to ${s.verify.receipts}; ` +
        `periodic runs: audit check ${runs(s.checkRuns)}, relay ${runs(s.relayRuns)}, evidence sync ${runs(s.syncRuns)}; logs by status ${JSON.stringify(s.statuses)}; ${tables}; peak RSS by phase: ${phases}`
      );
    }),
    `every figure of every step, the drain's slices included: ${json}`,
  ];

  return {
    throughput: last.ingest.rate,
    unit: 'logs/s',
    p50: last.reads.logById.p50,
    p99: last.reads.logById.p99,
    rssMb: apiPeak,
    summary:
      `at ${int(last.logs)} logs: coverage ${limited(last.coverage, settings.callLimitS)}, drain ${int(lastDrain.min)}-${int(lastDrain.max)} uploads/s, resume ${ms(last.resumeMs)}, ` +
      `export ${(last.export.ms / 1000).toFixed(1)} s, verify ${ms(last.verify.ms)}; API ${mb(apiPeak)} (${apiPhase}), worker ${mb(workerPeak)}`,
    targets: [
      { text: `coverage ≤ ${TARGETS.growthCoverageMs / 1000} s at every step`, pass: steps.every((s) => s.coverage.ms <= TARGETS.growthCoverageMs) },
      { text: `every drain's slices within a fifth of its best`, pass: steady },
      { text: `API RSS ≤ ${TARGETS.apiRssMb} MB`, pass: apiPeak <= TARGETS.apiRssMb },
      { text: `worker RSS ≤ ${TARGETS.workerRssMb} MB`, pass: workerPeak <= TARGETS.workerRssMb },
    ],
    details,
    table,
  };
}

const pct = (ratio) => (Number.isFinite(ratio) ? `${(ratio * 100).toFixed(0)}%` : 'n/a');
const runs = (r) => (r.n ? `${r.n} runs, median ${ms(r.p50)}, max ${ms(r.max)}${r.failed ? `, ${r.failed} failed` : ''}` : 'no run');
