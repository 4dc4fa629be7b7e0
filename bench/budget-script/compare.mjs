// Redis CPU per take of two or more builds of the weight budget's script, alternating them batch by batch:
//   git show HEAD~1:libs/weight-budget/src/budget.lua.ts > /tmp/before.lua.ts
//   node bench/budget-script/compare.mjs [--accounts=1] [--batches=20] [--batch=500] /tmp/before.lua.ts libs/weight-budget/src/budget.lua.ts
import { basename } from 'node:path';
import { luaOf, measureTakes } from './common.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('=')),
);
const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const options = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, Number(v)]));
const results = await measureTakes(
  files.map((file) => ({ name: file, lua: luaOf(file) })),
  options,
);
const f = (x) => x.toFixed(0).padStart(5);
console.log(`${options.accounts ?? 1} account(s), ${options.batches ?? 20} batches of ${options.batch ?? 500} calls per build, alternating`);
for (const r of results)
  console.log(
    `${basename(r.name).padEnd(24)} evalsha usec_per_call ${f(r.usec)} | server CPU per call ${f(r.cpu)} µs | fields ip ${r.fields.ip} uid ${r.fields.uid}, ${r.waits} waits`,
  );
