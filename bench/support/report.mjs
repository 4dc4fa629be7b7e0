import { readFileSync } from 'node:fs';
import { int, mb, ms } from './format.mjs';

/** The hand-kept analysis of what bounds the figures, copied into every report. */
const BOUNDS = readFileSync(new URL('../bounds.md', import.meta.url), 'utf8').trim();
/** What scenario 9 measures as an account's history grows, and its figures before issue 23's fixes, hand-kept too. */
const GROWTH = readFileSync(new URL('../growth.md', import.meta.url), 'utf8').trim();
/** How to run `npm run fault-run` and what it checks, hand-kept too: the report's last section. */
const FAULT_RUN = readFileSync(new URL('../fault-run.md', import.meta.url), 'utf8').trim();
/** bench/coverage.mjs's figures, hand-kept: a measurement of its own, not a scenario of run.mjs. */
const COVERAGE = readFileSync(new URL('../coverage.md', import.meta.url), 'utf8').trim();

/** docs/benchmarks.md: the machine, the table, each scenario's details, the profile, and how to reproduce. */
export function renderReport({ machine, results, durationS, warmupS, repeat, command, startedAt, minutes }) {
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`${command}\` on ${startedAt.toISOString()} (${durationS} s of measured load per scenario after ${warmupS} s of warm-up${repeat > 1 ? `, each scenario run ${repeat} times and its median run reported` : ''}, ${minutes.toFixed(1)} min in all).`,
    'Every figure below comes from that run; re-run it to replace this file. How to run it, and how to profile, is at the end.',
    '',
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${machine.cpu} |`,
    `| memory | ${machine.memory} |`,
    `| OS | ${machine.os} |`,
    `| Node | ${machine.node} |`,
    `| PostgreSQL | ${machine.postgres} |`,
    `| Redis | ${machine.redis} |`,
    `| load average at start | ${machine.load} |`,
    `| code measured | ${machine.code} |`,
    '',
    'The load generator (autocannon), PostgreSQL, Redis and the processes measured all share these cores, so the',
    'figures are lower bounds of what the code does on a machine of its own.',
    '',
    '## Results',
    '',
    '| # | scenario | throughput | p50 | p99 | peak RSS | targets | reproduce |',
    '|---|---|---:|---:|---:|---:|---|---|',
    ...results.map(tableRow),
    '',
    BOUNDS,
    '',
    '## Details',
    '',
    ...results.flatMap(detailSection),
    ...howTo(),
  ];
  return `${lines.join('\n')}\n`;
}

function tableRow(r) {
  const throughput = r.error ? 'failed' : Number.isFinite(r.throughput) ? `${int(r.throughput)} ${r.unit}` : '—';
  const targets = r.error
    ? `error: ${r.error.split('\n')[0].slice(0, 120)}`
    : [r.summary, ...r.targets.map((t) => `${t.text}: **${t.pass ? 'pass' : 'miss'}**`)].filter(Boolean).join('; ') || '(reference)';
  const cell = (value, format) => (r.error || !Number.isFinite(value) ? '—' : format(value));
  return `| ${r.id} | ${r.title} | ${throughput} | ${cell(r.p50, ms)} | ${cell(r.p99, ms)} | ${cell(r.rssMb, mb)} | ${targets} | \`${r.command}\` |`;
}

function detailSection(r) {
  const body = r.error ? ['```', r.error.slice(0, 4000), '```'] : r.details.map((line) => `- ${line}`);
  return [`### ${r.id}. ${r.title}`, '', ...body, '', ...(r.table ? [r.table, ''] : []), ...(r.profile ? [r.profile, ''] : [])];
}

function howTo() {
  return [
    '## How to run',
    '',
    '```bash',
    'npm run bench                              # every scenario and the profile; rewrites this file',
    'BENCH_DURATION_S=3 npm run bench -- --only=2,3   # some scenarios, short; prints the table, leaves this file alone',
    'npm run bench -- --only=2,profile --write  # ... and rewrites this file with only those',
    'npm run bench -- --repeat=3               # each scenario 3 times, the median run reported (this machine varies)',
    '```',
    '',
    'It needs PostgreSQL on 127.0.0.1:5432 (user `postgres`, trust) and Redis on 127.0.0.1:6379, like the end-to-end',
    'tests (`BENCH_DATABASE_URL`, `BENCH_REDIS_URL` point elsewhere). `BENCH_UPLOAD_LOGS` (default 400) sets the logs of',
    'scenario 6, which takes about 4 s per 100; `BENCH_FAIR_BACKLOG` (default 20,000) the backlog of account B in',
    'scenario 8, which runs about a minute whatever it is; `BENCH_STALL_S` (default 75) how long the `stall` scenario keeps',
    "its Redis stopped; `BENCH_MEMORY_CHAIN` (default 100,000) the logs already in the chain that scenario 7's worker checks",
    'under load, and `BENCH_AUDIT_LOGS` (default 200,000; about 80 s to seed, and as long to check), `BENCH_AUDIT_LOG_KB`',
    '(default 1) and `BENCH_AUDIT_BIG_KB` (default 256) the chain of the `audit-check` scenario; the `BENCH_GROWTH_*` variables set',
    'scenario 9 (below). `BENCH_WARMUP_S` (default 3) is the load run before each autocannon',
    'measurement and left out of its figures (JIT compilation and the first growth of tables are not steady state); its',
    'answers are still counted against the rows and jobs. Each scenario starts its own processes, a temporary database and a',
    'Redis key prefix of its own, and removes them afterwards. Benchmarks are never part of `npm test`.',
    '',
    '## How to profile',
    '',
    'The `profile` scenario runs scenario 2 with the API under `node --cpu-prof` and summarises the profile above.',
    'By hand:',
    '',
    '```bash',
    'npm run build',
    'DATABASE_URL=postgresql://postgres@127.0.0.1:5432/<db> REDIS_URL=redis://127.0.0.1:6379 \\',
    '  AGENT_API_KEY=agk_bench_0123456789abcdef AGENT_RATE_LIMIT_PER_MIN=1000000000 LOG_LEVEL=warn PORT=3000 \\',
    '  node --cpu-prof --cpu-prof-dir=/tmp/prof dist/apps/api/src/main.js',
    `node -e "import('./bench/support/payload.mjs').then((m) => process.stdout.write(m.logText()))" > /tmp/log.json`,
    "npx autocannon -c 50 -d 10 -m POST -H 'authorization: Bearer agk_bench_0123456789abcdef' \\",
    "  -H 'content-type: application/json' -i /tmp/log.json http://127.0.0.1:3000/v1/ai-logs",
    '# then stop the API with SIGTERM or Ctrl-C: the profile is written when the process exits',
    'node bench/profile-summary.mjs /tmp/prof/*.cpuprofile 20   # top self time by function and by package',
    '```',
    '',
    'Open the `.cpuprofile` in Chrome DevTools (Performance → Load profile) or speedscope.app for the flame graph;',
    '`--heap-prof` works the same way for allocations.',
    '',
    COVERAGE,
    '',
    GROWTH,
    '',
    FAULT_RUN,
  ];
}
