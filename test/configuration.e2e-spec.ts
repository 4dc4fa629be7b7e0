import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ENV_VARIABLES } from '#libs/config';

const ROOT = new URL('..', import.meta.url).pathname;
const API = join(ROOT, 'dist/apps/api/src/main.js');

describe('configuration', () => {
  it('.env.example lists every variable the gateway reads, and only those', () => {
    const listed = [...readFileSync(join(ROOT, '.env.example'), 'utf8').matchAll(/^#?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect([...listed].sort()).toEqual(Object.keys(ENV_VARIABLES).sort());
  });

  it('reads .env from the working directory at start, and the environment wins over it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-env-'));
    try {
      writeFileSync(join(dir, '.env'), 'PORT=not-a-port\nLOG_LEVEL=warn\n');
      const run = (env: Record<string, string>) =>
        promisify(execFile)(process.execPath, [API], { cwd: dir, env: { PATH: process.env.PATH, ...env } }).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
        );
      const fromFile = await run({});
      expect(fromFile.code).toBe(1);
      expect(fromFile.stderr).toContain('bad configuration: PORT');
      // PORT from the environment wins; the next problem is then the environment's own SHUTDOWN_TIMEOUT_MS.
      const overridden = await run({ PORT: '0', SHUTDOWN_TIMEOUT_MS: '1' });
      expect(overridden.code).toBe(1);
      expect(overridden.stderr).not.toContain('PORT');
      expect(overridden.stderr).toContain('bad configuration: SHUTDOWN_TIMEOUT_MS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
