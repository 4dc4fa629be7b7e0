import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

// nest-cli.json describes the monorepo to the Nest CLI, so that `nest build api` and `nest start worker --watch` work
// beside the npm scripts. Built here into a directory of its own (the real dist/ is in use by other tests), the CLI's
// output must be the npm build's, file for file.
const ROOT = new URL('..', import.meta.url).pathname;
const NEST = join(ROOT, 'node_modules/.bin/nest');
const config = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8'));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();

describe('nest-cli.json: the Nest CLI builds and starts the monorepo', () => {
  let out: string;
  /** nest-cli.json with the output in `out`, as a path from the root (the CLI joins it to its working directory). */
  let configFile: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'nest-cli-'));
    const copy = { ...config, compilerOptions: { ...config.compilerOptions, builder: { ...config.compilerOptions.builder } } };
    copy.compilerOptions.builder.options = { ...copy.compilerOptions.builder.options, outDir: join(out, 'dist') };
    writeFileSync(join(out, 'nest-cli.json'), JSON.stringify(copy));
    configFile = relative(ROOT, join(out, 'nest-cli.json'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  // A library named as an app (libs/witness beside apps/witness) is a project named `<name>-lib`.
  it('lists every app and lib as a project', () => {
    const projects = Object.entries(config.projects as Record<string, { type: string; root: string }>);
    const apps = readdirSync(join(ROOT, 'apps')).sort();
    const libs = readdirSync(join(ROOT, 'libs')).sort();
    expect(projects.filter(([, p]) => p.type === 'application').map(([name, p]) => [name, p.root])).toEqual(apps.map((a) => [a, `apps/${a}`]));
    expect(projects.filter(([, p]) => p.type === 'library').map(([, p]) => p.root)).toEqual(libs.map((l) => `libs/${l}`));
  });

  it('`nest build api` compiles what `npm run build` does, the same bytes', async () => {
    await promisify(execFile)(NEST, ['build', 'api', '--config', configFile], { cwd: ROOT, timeout: 120_000 });
    // What `npm run compile` compiles: every source of apps/ and libs/ but specs and testing helpers.
    const sources = ['apps', 'libs'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.spec.ts'))
        .map((e) => relative(ROOT, join(e.parentPath, e.name)))
        .filter((f) => !f.split('/').includes('testing'))
        // The console is browser code, bundled by esbuild (scripts/build-console.mjs), not compiled by swc.
        .filter((f) => !f.startsWith('apps/console/')),
    );
    expect(filesUnder(join(out, 'dist'))).toEqual(sources.map((f) => f.replace(/\.ts$/, '.js')).sort());
    for (const file of filesUnder(join(out, 'dist')))
      expect([file, readFileSync(join(out, 'dist', file), 'utf8')]).toEqual([file, readFileSync(join(ROOT, 'dist', file), 'utf8')]);
  }, 180_000);

  it('`nest start exchange-sim` builds and runs the simulator', async () => {
    const child = spawn(NEST, ['start', 'exchange-sim', '--config', configFile], {
      cwd: ROOT,
      env: { ...process.env, SIM_PORT: '0', SIM_SPOT_PORT: '0', HOST: '127.0.0.1' },
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      while (!/WEEX simulator listening on http:\/\/127\.0\.0\.1:\d+/.test(output)) {
        if (child.exitCode !== null) throw new Error(`nest start exited ${child.exitCode}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await once(child, 'exit');
    }
  }, 120_000);
});
