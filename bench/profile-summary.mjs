// Reads a V8 .cpuprofile (node --cpu-prof) and lists where the CPU went: top functions by self time, and the same
// time grouped by package or source folder. Usable alone: `node bench/profile-summary.mjs <file.cpuprofile> [top]`.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * Self time per function and per area, in ms, with (idle) kept apart so shares are of busy time. `fromMs`/`toMs`
 * keep only the samples in that window, in ms since the profile started (about when the process started).
 */
export function summariseProfile(file, { top = 15, fromMs = 0, toMs = Infinity } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node.id])));
  const selfUs = new Map();
  let atUs = 0;
  profile.samples.forEach((id, i) => {
    atUs += profile.timeDeltas[i];
    if (atUs < fromMs * 1000 || atUs > toMs * 1000) return;
    // timeDeltas[i + 1] is the time from sample i to the next one: the time sample i stands for.
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  const functions = new Map();
  const areas = new Map();
  const ours = new Map();
  let idleUs = 0;
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    totalUs += us;
    if (functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const key = `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + us);
    const area = areaOf(functionName, url);
    areas.set(area, (areas.get(area) ?? 0) + us);
    // Inclusive time of our own functions (dist/): each counted once per sample, however deep it recurs.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parents.get(at)) {
      const frame = nodes.get(at).callFrame;
      if (!frame.url.includes('/node_modules/') && /\/dist\/(apps|libs)\//.test(frame.url))
        seen.add(`${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`);
    }
    for (const key of seen) ours.set(key, (ours.get(key) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  const rank = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / busyUs }));
  return {
    totalMs: totalUs / 1000,
    idleMs: idleUs / 1000,
    busyMs: busyUs / 1000,
    functions: rank(functions),
    areas: rank(areas),
    ours: rank(ours),
  };
}

/** Where a function lives: an npm package, a folder of ours, Node's internals, or V8's own pseudo-frames. */
function areaOf(functionName, url) {
  if (!url) return functionName.startsWith('(') ? functionName : 'native (V8 builtins)';
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /dist\/((?:apps|libs)\/[^/]+)/.exec(url);
  return ours ? ours[1] : shortUrl(url);
}

function shortUrl(url) {
  return url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/');
}

/** The summary as Markdown tables. */
export function profileMarkdown(summary) {
  const row = ({ name, ms, share }) => `| \`${name.replaceAll('|', '\\|')}\` | ${ms.toFixed(0)} | ${(share * 100).toFixed(1)}% |`;
  return [
    `${(summary.totalMs / 1000).toFixed(1)} s sampled, ${(summary.busyMs / 1000).toFixed(1)} s of it busy on the main thread ` +
      `(${((summary.busyMs / summary.totalMs) * 100).toFixed(0)}%; idle is waiting for PostgreSQL, Redis or the next request). Shares are of busy time.`,
    '',
    '| area (package or folder) | self ms | share |',
    '|---|---:|---:|',
    ...summary.areas.map(row),
    '',
    '| function | self ms | share |',
    '|---|---:|---:|',
    ...summary.functions.map(row),
    '',
    '| our function (dist/), inclusive of what it calls synchronously | total ms | share |',
    '|---|---:|---:|',
    ...summary.ours.map(row),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, top] = process.argv.slice(2);
  if (!file) throw new Error('usage: node bench/profile-summary.mjs <file.cpuprofile> [top]');
  console.log(profileMarkdown(summariseProfile(file, { top: Number(top) || 15 })));
}
