// `npm run fault-run -- [--duration=75] [--seed=1] [--faults=all] ...`: the no-loss fault run of issue 15 on the
// production layout. `--help` says what it does and checks.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MUST_BE_ZERO } from './support/fault-check.mjs';
import { renderReport } from './support/fault-report.mjs';
import { DEFAULTS, GATEWAY_ENV, runFaultRun } from './support/fault-run-core.mjs';
import { FAULT_KINDS, parseFaults, planFaults } from './support/fault-schedule.mjs';
import { Cleanup } from './support/gateway.mjs';

const OPTIONS = {
  duration: { key: 'durationS', help: 'seconds of load (faults are spread over it)' },
  seed: { key: 'seed', help: 'seed of the fault schedule and of the agents’ choices' },
  faults: { key: 'faults', help: '`all`, `none`, or kind[:count[:seconds]],...: api-kill:3,redis-stall:1:20,storm' },
  apis: { key: 'apis', help: 'API processes' },
  workers: { key: 'workers', help: 'worker processes' },
  agents: { key: 'agentsPerAccount', help: 'concurrent agents per account (two accounts)' },
  rate: { key: 'ratePerS', help: 'logs a second, all agents together' },
  'batch-share': { key: 'batchShare', help: 'share of decisions sent as a batch of 2 to 20 logs' },
  'replay-share': { key: 'replayShare', help: 'share of acknowledged decisions sent again later, to check the replay' },
  'give-up': { key: 'giveUpS', help: 'seconds an agent retries one decision before it gives up' },
  'client-timeout': { key: 'clientTimeoutS', help: 'seconds an agent waits for one answer' },
  'drain-timeout': { key: 'drainTimeoutS', help: 'seconds to wait, after the load, for every log to be uploaded or failed' },
  latency: { key: 'latencyMs', help: 'ms the exchange takes to answer every request, faults or not' },
};

let values;
let input;
let plan;
try {
  ({ values, input } = readArguments());
  const options = { ...DEFAULTS, ...input };
  plan = planFaults({ seed: options.seed, durationMs: options.durationS * 1000, faults: parseFaults(options.faults, options.durationS) });
} catch (error) {
  console.error(`${error.message}\n(npm run fault-run -- --help lists the options)`);
  process.exit(2);
}
if (values.help) {
  console.log(help());
  process.exit(0);
}
const options = { ...DEFAULTS, ...input };
if (values.plan) {
  console.log(`faults of --seed=${options.seed} over ${options.durationS} s of load:`);
  for (const e of plan.events) console.log(`  ${(e.atMs / 1000).toFixed(1).padStart(6)} s  ${e.kind.padEnd(12)} for ${e.forMs / 1000} s`);
  if (plan.dropped.length) console.log(`dropped for lack of room: ${plan.dropped.join(', ')}`);
  process.exit(0);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    console.error(`\n${signal}: stopping the processes and removing the run's database`);
    await Cleanup.runAll();
    process.exit(130);
  });
}

const given = Object.entries(values).filter(([name]) => name in OPTIONS && !['duration', 'seed', 'faults'].includes(name));
const command = [
  `npm run fault-run -- --duration=${options.durationS} --seed=${options.seed} --faults=${options.faults}`,
  ...given.map(([name, value]) => `--${name}=${value}`),
  ...(values.env ?? []).map((pair) => `--env ${pair}`),
].join(' ');
const report = await runFaultRun(input, (line) => console.log(line));
const file = values.json ?? join(tmpdir(), `fault-run-${report.runId}.json`);
writeFileSync(file, `${JSON.stringify({ command, ...report }, null, 2)}\n`);
console.log(`\n${command}  (${report.machine.code})\n`);
console.log(renderReport(report));
console.log(`\nJSON: ${file}`);
if (report.failures.length) {
  console.log(`\nFAIL: ${report.failures.join(', ')}`);
  process.exit(1);
}
console.log('\nPASS: every must-be-zero figure is zero');

/** The command line as FaultRun options; throws on anything it does not take. */
function readArguments() {
  const { values: given } = parseArgs({
    options: {
      ...Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, { type: 'string' }])),
      env: { type: 'string', multiple: true },
      json: { type: 'string' },
      plan: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  const read = {};
  for (const [name, { key }] of Object.entries(OPTIONS)) {
    if (given[name] === undefined) continue;
    read[key] = name === 'faults' ? given[name] : Number(given[name]);
    if (name !== 'faults' && !(Number.isFinite(read[key]) && read[key] >= 0)) throw new Error(`--${name} must be a number, not "${given[name]}"`);
  }
  for (const key of ['seed', 'apis', 'workers', 'agentsPerAccount']) {
    if (read[key] !== undefined && !Number.isInteger(read[key])) throw new Error(`${key} must be a whole number`);
  }
  if (given.env) {
    read.env = Object.fromEntries(
      given.env.map((pair) => {
        const at = pair.indexOf('=');
        if (at < 1) throw new Error(`--env takes NAME=VALUE, not "${pair}"`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
    );
  }
  return { values: given, input: read };
}

function help() {
  const option = (name, text, value) => `  --${`${name}=${value}`.padEnd(28)} ${text}`;
  return [
    'npm run fault-run -- [options]',
    '',
    'The no-loss fault run of issue 15, on the production layout built in dist/: a fresh PostgreSQL database, a',
    'redis-server of its own on a free port, the exchange simulator with two allowlisted accounts (the sandbox one and',
    'one added through POST /admin/accounts and /admin/agents), APIs and workers with the node flags of',
    'start:api / start:worker. Agents post logs with a unique marker in `input` and an Idempotency-Key per decision,',
    'retrying with the same key until a 202/207, while faults play on a seeded schedule. Then the faults stop, every',
    'process comes back, the agents finish, and the run waits for every log to be uploaded or failed.',
    '',
    'Options:',
    ...Object.entries(OPTIONS).map(([name, { key, help: text }]) => option(name, text, DEFAULTS[key])),
    option('env', 'a gateway setting for every API and worker (repeatable)', 'NAME=VALUE'),
    option('json', 'where to write the report as JSON', '<tmpdir>/fault-run-<run>.json'),
    '  --plan                       print the fault schedule of these options and exit',
    '',
    'Faults (a kind without a count comes once per the period given, at least once; `all` is every kind so):',
    ...Object.entries(FAULT_KINDS).map(([kind, k]) => `  ${kind.padEnd(13)} every ${String(k.everyS).padStart(2)} s: ${k.what}`),
    '',
    `Gateway settings changed from the defaults: ${Object.entries(GATEWAY_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}.`,
    '',
    'It exits 1 when any of these is not zero:',
    ...Object.entries(MUST_BE_ZERO).map(([name, text]) => `  ${name.padEnd(36)} ${text}`),
  ].join('\n');
}
