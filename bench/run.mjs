// `npm run bench [-- --only=2,3,profile] [--repeat=3] [--write]`: runs the scenarios in order and reports them. A full
// run writes docs/benchmarks.md; a partial one prints its table and leaves the file alone unless --write is given.
// --repeat=N runs each scenario N times and reports its median run (by its main figure), with the others beside it:
// on a shared 2-core machine one run can differ from the next by a fifth.
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { DURATION_S, WARMUP_S } from './settings.mjs';
import { Cleanup } from './support/gateway.mjs';
import { describeMachine } from './support/machine.mjs';
import { renderReport } from './support/report.mjs';

const SCENARIOS = {
  1: './scenarios/1-reference.mjs',
  2: './scenarios/2-ingest.mjs',
  3: './scenarios/3-batch.mjs',
  4: './scenarios/4-embedded.mjs',
  5: './scenarios/5-query.mjs',
  6: './scenarios/6-upload-budget.mjs',
  7: './scenarios/7-memory.mjs',
  8: './scenarios/8-fair-uploads.mjs',
  9: './scenarios/9-growth.mjs',
  stall: './scenarios/redis-stall.mjs',
  profile: './scenarios/profile.mjs',
  receipts: './scenarios/receipts.mjs',
  'audit-check': './scenarios/audit-check.mjs',
  proofs: './scenarios/proofs.mjs',
  abuse: './scenarios/abuse.mjs',
  llm: './scenarios/llm-proxy.mjs',
  'llm-memory': './scenarios/llm-memory.mjs',
  otlp: './scenarios/otlp.mjs',
  'otlp-decisions': './scenarios/otlp-decisions.mjs',
  'otlp-decode': './scenarios/otlp-decode.mjs',
  'budget-script': './scenarios/budget-script.mjs',
};
const REPORT = new URL('../docs/benchmarks.md', import.meta.url);

const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .map((s) => s.trim());
const unknown = (only ?? []).filter((id) => !(id in SCENARIOS));
if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}`);
const ids = only ?? Object.keys(SCENARIOS);
const write = !only || args.includes('--write');
const repeat = Math.max(1, Number(args.find((a) => a.startsWith('--repeat='))?.slice('--repeat='.length) ?? 1) || 1);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    console.error(`\n${signal}: stopping the processes and removing the databases and keys of the scenario under way`);
    await Cleanup.runAll();
    process.exit(130);
  });
}

// The variables that change what runs, so that each row's command reproduces it.
const settingsEnv = [
  'BENCH_DURATION_S',
  'BENCH_WARMUP_S',
  'BENCH_UPLOAD_LOGS',
  'BENCH_FAIR_BACKLOG',
  'BENCH_STALL_S',
  'BENCH_GROWTH_LOGS',
  'BENCH_GROWTH_ORDERS',
  'BENCH_GROWTH_SLICE_S',
  'BENCH_GROWTH_DRAIN_S',
  'BENCH_GROWTH_READS',
  'BENCH_GROWTH_CALL_LIMIT_S',
  'BENCH_AUDIT_LOGS',
  'BENCH_AUDIT_BIG_KB',
  'BENCH_AUDIT_LOG_KB',
  'BENCH_MEMORY_CHAIN',
  'BENCH_DATABASE_URL',
  'BENCH_REDIS_URL',
]
  .map((name) => (name === 'BENCH_DURATION_S' ? `${name}=${DURATION_S}` : process.env[name] ? `${name}=${process.env[name]}` : ''))
  .filter(Boolean)
  .join(' ');

const startedAt = new Date();
const machine = await describeMachine();
console.log(`machine: ${machine.cpu}, ${machine.memory}, Node ${machine.node}; load average ${machine.load}`);
const results = [];
for (const [i, id] of ids.entries()) {
  // Each scenario starts on a machine at rest: the previous one's processes may still be exiting and writing.
  if (i > 0) await settle();
  const scenario = await import(SCENARIOS[id]);
  console.log(`\n▶ ${id}. ${scenario.title}`);
  const command = `${settingsEnv} npm run bench -- --only=${id}${repeat > 1 ? ` --repeat=${repeat}` : ''}`;
  const runs = [];
  for (let run = 1; run <= repeat; run++) {
    if (run > 1) await settle();
    try {
      runs.push(await scenario.run());
    } catch (error) {
      // One scenario failing is a result too: report it and go on with the others.
      console.error(`  failed: ${error.stack ?? error}`);
      runs.push({ error: String(error.stack ?? error) });
    }
  }
  const result = median(runs);
  results.push({ id, title: scenario.title, command, ...result });
  if (!result.error) {
    for (const line of result.details) console.log(`  ${line}`);
    if (result.table) console.log(`\n${result.table}`);
    if (result.profile) console.log(result.profile);
  }
}

/**
 * The run whose main figure is the median (`rank`: lower is better, as for a latency overhead; else throughput), with
 * every run's figure added to its details. A failed run makes the scenario fail.
 */
function median(runs) {
  const failed = runs.find((r) => r.error);
  if (failed || runs.length === 1) return failed ?? runs[0];
  const key = (r) => (Number.isFinite(r.rank) ? -r.rank : r.throughput);
  const sorted = [...runs].sort((a, b) => key(a) - key(b));
  const chosen = sorted[Math.floor((sorted.length - 1) / 2)];
  const figure = (r) => (Number.isFinite(r.rank) ? `${r.rank.toFixed(2)} ${r.rankUnit}` : `${Math.round(r.throughput).toLocaleString('en')} ${r.unit}`);
  const line = `${runs.length} runs: ${runs.map(figure).join(', ')}; the median run is the one reported`;
  return { ...chosen, details: [line, ...chosen.details] };
}

const report = renderReport({
  machine,
  results,
  durationS: DURATION_S,
  warmupS: WARMUP_S,
  repeat,
  command: `${settingsEnv} npm run bench${only || repeat > 1 ? ' --' : ''}${only ? ` --only=${ids.join(',')}` : ''}${repeat > 1 ? ` --repeat=${repeat}` : ''}`,
  startedAt,
  minutes: (Date.now() - startedAt.getTime()) / 60_000,
});
const table = report.slice(report.indexOf('## Results'), report.indexOf('## Details'));
console.log(`\n${table}`);
if (write) {
  writeFileSync(REPORT, report);
  console.log(`written to docs/benchmarks.md`);
}

/** Waits until the 1-minute load average is below the core count, at most 30 s, after a pause of 3 s. */
async function settle() {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(3_000);
  for (let waited = 0; waited < 30_000 && loadavg()[0] >= availableParallelism(); waited += 1_000) await sleep(1_000);
}
