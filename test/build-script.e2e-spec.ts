import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// scripts/build.mjs, `npm start`'s prestart: with --if-stale it builds only what changed since the last build. Run in
// a scratch project whose generator and compiler only note that they ran, so that the real dist/ is never touched
// while other tests use it.
const ROOT = new URL('..', import.meta.url).pathname;

describe('npm start builds only what changed (scripts/build.mjs --if-stale)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-build-'));
    for (const sub of ['scripts', 'libs/common/src', 'libs/database/src/generated', 'apps/api/src', 'prisma', 'node_modules'])
      mkdirSync(join(dir, sub), { recursive: true });
    copyFileSync(join(ROOT, 'scripts/build.mjs'), join(dir, 'scripts/build.mjs'));
    const note = (what: string) => `node -e "require('fs').appendFileSync('ran', '${what}\\n')"`;
    // Like Prisma's generator, it writes the client anew, which moves its parent directory's time.
    writeFileSync(
      join(dir, 'scripts/prisma-generate.mjs'),
      "import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';\nappendFileSync('ran', 'generate\\n');\n" +
        "rmSync('libs/database/src/generated', { recursive: true, force: true });\nmkdirSync('libs/database/src/generated');\n" +
        "writeFileSync('libs/database/src/generated/client.ts', '');\n",
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { compile: note('compile') } }));
    for (const file of [
      'libs/common/src/index.ts',
      'apps/api/src/main.ts',
      'prisma/schema.prisma',
      'package-lock.json',
      'node_modules/.package-lock.json',
      '.swcrc',
    ]) {
      writeFileSync(join(dir, file), '');
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** What one run of the script did: the steps it ran, in order. */
  function build(...args: string[]): string[] {
    rmSync(join(dir, 'ran'), { force: true });
    execFileSync(process.execPath, ['scripts/build.mjs', ...args], { cwd: dir, stdio: 'pipe' });
    try {
      return readFileSync(join(dir, 'ran'), 'utf8').trim().split('\n');
    } catch {
      return [];
    }
  }

  /** An editor's save, now: after the last build began (it took longer than a file system's time step). */
  function touch(file: string): void {
    const now = new Date();
    expect(now.getTime()).toBeGreaterThan(statSync(join(dir, 'dist/.build-stamp')).mtimeMs + 10);
    utimesSync(join(dir, file), now, now);
  }

  it('builds everything on a fresh clone, then nothing until a file changes', () => {
    expect(build('--if-stale')).toEqual(['generate', 'compile']);
    expect(build('--if-stale')).toEqual([]);
    touch('libs/common/src/index.ts');
    expect(build('--if-stale')).toEqual(['compile']);
    expect(build('--if-stale')).toEqual([]);
    touch('prisma/schema.prisma');
    expect(build('--if-stale')).toEqual(['generate', 'compile']);
    // After `npm install`, which may bring another Prisma or swc.
    touch('node_modules/.package-lock.json');
    expect(build('--if-stale')).toEqual(['generate', 'compile']);
  });

  it('regenerates a client that is missing, and builds in full without --if-stale', () => {
    expect(build('--if-stale')).toEqual(['generate', 'compile']);
    rmSync(join(dir, 'libs/database/src/generated'), { recursive: true });
    expect(build('--if-stale')).toEqual(['generate', 'compile']);
    expect(build('--if-stale')).toEqual([]);
    expect(build()).toEqual(['generate', 'compile']);
  });
});
