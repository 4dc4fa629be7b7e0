import { measureTakes } from '../budget-script/common.mjs';

const { BUDGET_LUA } = await import('../../dist/libs/weight-budget/src/budget.lua.js');

// Every upload takes from the weight budget once: at a drain's 500 uploads/s, 1 ms of Redis per take is half a core.
const TARGETS = { oneAccountUs: 500 };

export const title = "The weight budget's Redis script: Redis CPU per take with a drain's 10 s of buckets held (private redis-server)";

export async function run() {
  const script = [{ name: 'HEAD', lua: BUDGET_LUA }];
  const [one] = await measureTakes(script, { accounts: 1 });
  const [three] = await measureTakes(script, { accounts: 3 });
  const line = (what, r) =>
    `${what}: ${r.cpu.toFixed(0)} µs of the server's CPU per take (commandstats ${r.usec.toFixed(0)} µs), ${r.fields.ip} IP and ${r.fields.uid} UID fields held, ${r.waits} waits`;
  return {
    throughput: 1e6 / one.cpu,
    unit: 'takes per second of Redis CPU (1 account)',
    targets: [{ text: `at most ${TARGETS.oneAccountUs} µs of Redis CPU per take for one account at 500 takes/s`, pass: one.cpu <= TARGETS.oneAccountUs }],
    details: [line('1 account', one), line('3 accounts', three), 'medians of 20 batches of 500 takes; compare builds with bench/budget-script/compare.mjs'],
  };
}
