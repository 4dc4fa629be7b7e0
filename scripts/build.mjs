// `npm run build`: the Prisma client, then swc into dist/. `npm start` runs it with --if-stale (its prestart): a start
// after nothing changed skips the build (about 5 s of the start, 2 s of it Prisma's generator), and a change of
// TypeScript only skips the generator. dist/.build-stamp records when the last build began.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const STAMP = join(ROOT, 'dist/.build-stamp');
const GENERATED = 'libs/database/src/generated';
/** What the generated client depends on: the schema, the generator's version (the installed packages) and its script. */
const CLIENT_INPUTS = ['prisma', 'package-lock.json', 'node_modules/.package-lock.json', 'scripts/prisma-generate.mjs'];
/** What the compiled code depends on besides the client: sources and the compiler's settings and version. */
const CODE_INPUTS = ['apps', 'libs', '.swcrc', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json'];

const ifStale = process.argv.includes('--if-stale');
const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : undefined;
const changed = (inputs) => built === undefined || inputs.some((input) => newestMtime(join(ROOT, input)) > built);
const generate = !ifStale || !existsSync(join(ROOT, GENERATED)) || changed(CLIENT_INPUTS);
if (ifStale && !generate && !changed(CODE_INPUTS)) process.exit(0);

const began = new Date();
if (generate) run(process.execPath, ['scripts/prisma-generate.mjs']);
// The compile command of package.json, with the local binaries on PATH as npm would put them.
const { compile } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
run(compile, [], { shell: true, env: { ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}${delimiter}${process.env.PATH}` } });
mkdirSync(join(ROOT, 'dist'), { recursive: true });
writeFileSync(STAMP, '');
// The time the build began: a file saved while it ran is newer, so the next start builds again.
utimesSync(STAMP, began, began);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * The newest modification time of a file, or of any file under a directory (the generated client left out). Files
 * only: a directory's time moves when the generator recreates the client inside it, after the build began.
 */
function newestMtime(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (child === join(ROOT, GENERATED) || entry.name === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(child));
  }
  return newest;
}
