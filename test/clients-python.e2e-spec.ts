import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// The Python client's own tests (clients/python/tests), run by Debian's pytest for /usr/bin/python3 (.ci/run installs
// python3-pytest). They start and restart a real gateway of their own, as `npm start` runs it (dist/, which `npm test`
// builds first). Without pytest the test is a visible skip, except with CI=true, where it runs and fails.
const ROOT = new URL('..', import.meta.url).pathname;
const PYTHON = '/usr/bin/python3';

function pytestMissing(): string | undefined {
  if (!existsSync(PYTHON)) return `no ${PYTHON}`;
  if (spawnSync(PYTHON, ['-c', 'import pytest'], { stdio: 'ignore' }).status !== 0) return `${PYTHON} has no pytest: apt-get install python3-pytest`;
  return undefined;
}

const missing = pytestMissing();
const itWithPytest: typeof it = missing && process.env.CI !== 'true' ? it.skip : it;
if (missing && process.env.CI !== 'true') console.warn(`SKIPPED: the Python client's tests: ${missing} (see .ci/run)`);

describe('the Python client (clients/python)', () => {
  let pytest: ChildProcess | undefined;

  // pytest runs in a process group of its own: a jest timeout kills it with the gateways it started, not just pytest.
  afterAll(() => {
    if (pytest?.pid !== undefined && pytest.exitCode === null && pytest.signalCode === null) process.kill(-pytest.pid, 'SIGKILL');
  });

  itWithPytest(
    'passes its pytest suite against a real gateway',
    async () => {
      if (missing) throw new Error(`${missing}; with CI=true this is a failure, not a skip`);
      pytest = spawn(PYTHON, ['-m', 'pytest', 'clients/python/tests', '-q', '-rs'], {
        cwd: ROOT,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      pytest.stdout!.on('data', (chunk) => (output += chunk));
      pytest.stderr!.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | null>((resolve, reject) => {
        pytest!.once('error', reject);
        pytest!.once('close', (exitCode) => resolve(exitCode));
      });
      if (code !== 0) throw new Error(`pytest exited with ${code}:\n${output}`);
      expect(output).toMatch(/\d+ passed/);
    },
    600_000,
  );
});
