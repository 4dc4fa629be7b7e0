import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// A reproducible install: `npm ci` (CI, the Dockerfile) takes exactly the committed lock file, so the lock file must
// match package.json and list every platform's binaries, and no package in it may refuse a Node that `engines` accepts.
const ROOT = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; dependencies: Record<string, string> };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; version?: string; integrity?: string; optional?: boolean }>;
};
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

/** `npm ci --dry-run` in a directory holding only the two files: reads the lock file, installs nothing. */
async function npmCiDryRun(packageJson: string): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-lock-'));
  try {
    writeFileSync(join(dir, 'package.json'), packageJson);
    copyFileSync(join(ROOT, 'package-lock.json'), join(dir, 'package-lock.json'));
    const args = ['ci', '--dry-run', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'];
    return await promisify(execFile)('npm', args, { cwd: dir, encoding: 'utf8' }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout}${error.stderr}` }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the install', () => {
  it('package-lock.json is in step with package.json: `npm ci` takes it', async () => {
    const result = await npmCiDryRun(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(result.output).not.toMatch(/in sync|EUSAGE/);
    expect(result.code).toBe(0);
  });

  it('and refuses it once package.json asks for something else (what CI then reports)', async () => {
    const drifted = { ...pkg, dependencies: { ...pkg.dependencies, pino: '^9.0.0' } };
    const result = await npmCiDryRun(JSON.stringify(drifted));
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/package\.json and package-lock\.json .*are in sync/);
  });

  it("lists other platforms' native binaries with their hashes, so `npm ci` works on any machine or image", () => {
    for (const name of [
      '@swc/core-linux-x64-gnu',
      '@swc/core-linux-arm64-gnu',
      '@swc/core-linux-arm64-musl',
      '@swc/core-darwin-arm64',
      '@swc/core-win32-x64-msvc',
    ]) {
      const entry = lock.packages[`node_modules/${name}`];
      expect({ name, version: entry?.version, integrity: entry?.integrity?.startsWith('sha512-') }).toEqual({
        name,
        version: lock.packages['node_modules/@swc/core']!.version,
        integrity: true,
      });
    }
  });

  it('every package accepts the lowest Node of each range `engines` accepts (npm warns EBADENGINE otherwise)', () => {
    const floors = pkg.engines.node.split('||').map((range) => semver.minVersion(range.trim())!.version);
    expect(floors).toEqual(['20.19.0', '22.13.0', '24.0.0']);
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!path || !wanted) continue;
      for (const floor of floors) if (!semver.satisfies(floor, wanted)) refusing.push(`${path} wants node ${wanted}, not ${floor}`);
    }
    expect(refusing).toEqual([]);
    // This machine's Node is one `engines` accepts (CI runs the suite on it).
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});
