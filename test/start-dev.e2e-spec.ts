import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild } from './support/child-processes.js';
import { waitFor } from './support/wait-for.js';

// `npm run start:dev` as a developer runs it: it builds, starts, and on a change under libs/ rebuilds and restarts.
const ROOT = new URL('..', import.meta.url).pathname;
const TOUCHED = join(ROOT, 'libs/common/src/index.ts');

describe('npm run start:dev', () => {
  it('restarts the gateway when a source file changes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-dev-'));
    const env = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', SIM_PORT: '0', SIM_SPOT_PORT: '0' };
    const child = spawnChild(process.execPath, [join(ROOT, 'scripts/dev.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const started = () => output.match(/AI-log gateway listening on/g)?.length ?? 0;
    try {
      await waitFor('the first start', async () => (started() === 1 ? true : undefined), 120_000);
      // A save in an editor, without changing the file.
      const { atime, mtime } = statSync(TOUCHED);
      utimesSync(TOUCHED, atime, new Date(mtime.getTime() + 1_000));
      await waitFor('the restart', async () => (started() === 2 ? true : undefined), 120_000);
      expect(output).toContain('libs/common/src/index.ts changed: rebuilding');
      child.kill('SIGTERM');
      const code = child.exitCode ?? (await new Promise((resolve) => child.once('exit', resolve)));
      expect(code).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
