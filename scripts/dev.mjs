// `npm run start:dev`: `npm start` that rebuilds and restarts when a file under apps/ or libs/ changes. Node's
// recursive fs.watch (Linux, macOS, Windows) and the build's own swc command: no watcher dependency.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, watch } from 'node:fs';

// The gateway as `npm start` runs it: its script's node flags (memory settings; README, "Production") and entry point.
const START = JSON.parse(readFileSync('package.json', 'utf8'))
  .scripts.start.replace(/^exec node /, '')
  .split(' ');
const compile = () => spawnSync('npm', ['run', '-s', 'compile'], { stdio: 'inherit' }).status === 0;

let child;
let stopping = false;
let restarting = Promise.resolve();
function start() {
  child = spawn(process.execPath, START, { stdio: 'inherit' });
  // A gateway that stops on its own (a port in use, a bad variable) ends the watch with its exit code.
  child.once('exit', (code) => {
    if (!stopping) process.exit(code ?? 1);
  });
}
async function stop() {
  if (!child || child.exitCode !== null) return child?.exitCode ?? 0;
  stopping = true;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const code = await exited;
  stopping = false;
  return code;
}

if (spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' }).status !== 0) process.exit(1);
start();

let timer;
for (const root of ['apps', 'libs']) {
  watch(root, { recursive: true }, (_event, file) => {
    if (!file || !file.endsWith('.ts') || file.endsWith('.spec.ts')) return;
    clearTimeout(timer);
    // Editors write a file in several steps: build once they are done.
    timer = setTimeout(() => {
      restarting = restarting.then(async () => {
        process.stderr.write(`start:dev: ${root}/${file} changed: rebuilding\n`);
        if (!compile()) return process.stderr.write('start:dev: the build failed; still running the last good one\n');
        await stop();
        start();
      });
    }, 200);
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    stopping = true;
    process.exit((await stop()) ?? 0);
  });
}
