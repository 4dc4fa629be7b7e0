import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './support/wait-for.js';

// `npm start` as a user runs it: the built standalone process, nothing but DATA_DIR and free ports set.
// `npm test` builds first (pretest), so dist/ is the code under test.
const MAIN = new URL('../dist/apps/standalone/src/main.js', import.meta.url).pathname;
const json = (res: Response): Promise<any> => res.json();

interface Started {
  child: ChildProcess;
  url: string;
  key: string;
  output: () => string;
}

async function start(dataDir: string): Promise<Started> {
  const env = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', SIM_PORT: '0', SIM_SPOT_PORT: '0' };
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const banner = await waitFor('the startup banner', async () => (/Post a log:/.test(output) ? output : undefined), 60_000);
  return {
    child,
    url: /listening on (http:\/\/\S+)/.exec(banner)![1],
    key: /Agent key for the sandbox account: (\S+)/.exec(banner)![1],
    output: () => output,
  };
}

/** The process's peak RSS in MB (the kernel's high-water mark), or undefined where there is no /proc. */
function peakRssMb(pid: number): number | undefined {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return undefined;
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(status, 'utf8'))![1]) / 1024;
}

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  if (started.child.exitCode === null) await new Promise((resolve) => started.child.once('exit', resolve));
}

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves the whole path with no services and no settings, and keeps its data across a restart', async () => {
    const first = await start(dataDir);
    let id: string;
    try {
      expect(first.output()).toMatch(/SANDBOX mode/);
      expect(first.output()).toMatch(/embedded PGlite/);
      // A new data directory gets its initdb in a child process: run here, it would leave this process at ~900 MB
      // where every later start needs ~450 MB (embedded-database.ts).
      const peak = peakRssMb(first.child.pid!);
      if (peak !== undefined) expect(peak).toBeLessThan(700);
      // The printed curl command, as a user would paste it.
      const curl = /-d '(.+)'/.exec(first.output())![1];
      const res = await fetch(`${first.url}/v1/ai-logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${first.key}`, 'content-type': 'application/json' },
        body: curl,
      });
      expect(res.status).toBe(202);
      id = (await json(res)).id;
      const view = await waitFor('the upload', async () => {
        const v = await json(await fetch(`${first.url}/v1/ai-logs/${id}`, { headers: { authorization: `Bearer ${first.key}` } }));
        return v.status === 'uploaded' ? v : undefined;
      });
      expect(view).toMatchObject({ orderId: '737185556881998184', target: 'simulator' });
    } finally {
      await stop(first);
    }
    const second = await start(dataDir);
    try {
      expect(second.key).toBe(first.key);
      const view = await json(await fetch(`${second.url}/v1/ai-logs/${id}`, { headers: { authorization: `Bearer ${second.key}` } }));
      expect(view).toMatchObject({ id, status: 'uploaded' });
    } finally {
      await stop(second);
    }
  }, 180_000);
});
