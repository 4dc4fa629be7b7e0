import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  type BuiltStage,
  canReplay,
  execInContainer,
  parseDockerfile,
  removeScratch,
  replayDockerfile,
  ReplayError,
  startContainer,
} from './support/dockerfile-replay.js';
import { REDIS_URL } from './support/services.js';
import { createTempDatabase } from './support/temp-database.js';
import { waitFor } from './support/wait-for.js';

// There is no Docker engine here, so the Dockerfile is replayed for real (test/support/dockerfile-replay.ts): each
// stage in a root of its own, every RUN chrooted into it, then the image's CMD started as its USER against PostgreSQL
// and Redis until /health/ready answers 200. Copies with one step broken must fail; the layer cache makes them cheap.
const ROOT = new URL('..', import.meta.url).pathname;
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** The Dockerfile with `from` replaced by `to` (which must be there once). */
function broken(from: string | RegExp, to: string): string {
  const changed = DOCKERFILE.replace(from, to);
  if (changed === DOCKERFILE) throw new Error(`the Dockerfile no longer has ${from}`);
  return changed;
}

const unavailable = canReplay();
if (unavailable && process.env.CI === 'true') throw new Error(`${unavailable}; with CI=true this is a failure, not a skip`);
const maybe = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`SKIPPED: ${unavailable}`);

maybe('the Dockerfile, replayed', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'gateway-image-'));
  const steps: string[] = [];
  const replay = (dockerfile: string) => replayDockerfile(dockerfile, { repo: ROOT, scratch, log: (line) => steps.push(line) });
  let database: Awaited<ReturnType<typeof createTempDatabase>> | undefined;
  let image: BuiltStage;
  let env: Record<string, string>;
  const running: ChildProcess[] = [];

  /** The image's CMD with the test's environment; its output is collected. */
  function start(built: BuiltStage, command?: string[], extraEnv: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
    const child = startContainer(built, { ...env, ...extraEnv }, command);
    running.push(child);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    return { child, output: () => output };
  }

  const suiteStarted = Date.now();
  beforeAll(async () => {
    steps.push(`before all at ${Date.now() - suiteStarted} ms`);
    database = await createTempDatabase();
    const port = await freePort();
    env = { DATABASE_URL: database.url, REDIS_URL, QUEUE_PREFIX: `image-${randomBytes(4).toString('hex')}`, HOST: '127.0.0.1', PORT: String(port) };
    // The expensive replay, once: a full install, the build, the production install.
    const started = Date.now();
    image = replay(DOCKERFILE);
    steps.push(`replayed in ${Date.now() - started} ms`);
  }, 300_000);

  afterAll(async () => {
    steps.push(`after all at ${Date.now() - suiteStarted} ms`);
    for (const child of running) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    }
    await database?.drop();
    steps.push(`dropped the database at ${Date.now() - suiteStarted} ms`);
    removeScratch(scratch);
    steps.push(`cleaned up at ${Date.now() - suiteStarted} ms`);
    // Where the time went (the layer cache's hits read CACHED).
    console.log(steps.join('\n'));
  });

  it('has a build stage and a runtime stage from node images, the runtime one running as an unprivileged user', () => {
    const { stages } = parseDockerfile(DOCKERFILE);
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(image.state.user).toBe('node');
    expect(image.state.env).toMatchObject({ NODE_ENV: 'production', DATA_DIR: '/data', MALLOC_ARENA_MAX: '2' });
  });

  it('holds the production dependencies, the built code and the migrations, and nothing the build only needed', () => {
    const app = join(image.root, 'app');
    for (const name of Object.keys(pkg.dependencies)) expect(existsSync(join(app, 'node_modules', name, 'package.json'))).toBe(true);
    for (const name of ['@swc/core', 'typescript', 'prisma', '@prisma/studio-core', 'jest', 'ccxt'])
      expect(existsSync(join(app, 'node_modules', name))).toBe(false);
    expect(existsSync(join(app, 'dist/apps/api/src/main.js'))).toBe(true);
    // The generated Prisma client is not committed: only the build stage makes it.
    expect(existsSync(join(app, 'dist/libs/database/src/generated/client.js'))).toBe(true);
    expect(readdirSync(join(app, 'prisma/migrations')).length).toBeGreaterThan(1);
    expect(existsSync(join(app, 'apps'))).toBe(false);
    expect(existsSync(join(app, 'libs'))).toBe(false);
    // npm's cache was a cache mount, not part of the image: only its mount point is left.
    expect(readdirSync(join(image.root, 'root/.npm'))).toEqual([]);
    // DATA_DIR is the unprivileged user's (uid 1000 in node images).
    expect(statSync(join(image.root, 'data')).uid).toBe(1000);
  });

  it('starts its CMD as that user against PostgreSQL and Redis, answers /health/ready 200, and its HEALTHCHECK passes', async () => {
    const api = start(image);
    const url = `http://127.0.0.1:${env.PORT}`;
    const ready = await waitFor(
      '/health/ready to answer 200',
      async () => {
        if (api.child.exitCode !== null) throw new Error(`the image's CMD exited with ${api.child.exitCode}: ${api.output()}`);
        const res = await fetch(`${url}/health/ready`).catch(() => undefined);
        return res?.status === 200 ? res.json() : undefined;
      },
      60_000,
    );
    expect(ready).toMatchObject({ status: 'ready', failed: [] });
    // The process is the image's user, not root.
    expect(readFileSync(`/proc/${api.child.pid}/status`, 'utf8')).toMatch(/^Uid:\s+1000\s/m);
    // Sandbox mode (no WEEX credentials) wrote its generated keys to DATA_DIR as that user.
    expect(readdirSync(join(image.root, 'data')).length).toBeGreaterThan(0);
    const check = await execInContainer(image, env, image.healthcheck!);
    expect(check).toEqual({ code: 0, output: '' });
    api.child.kill('SIGTERM');
    await once(api.child, 'exit');
  });

  it("runs the worker's and the simulator's compose commands too, and the simulator's compose health check passes", async () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { command: string[]; healthcheck: { test: string[] } }>;
    };
    const worker = start(image, compose.services.worker.command);
    await waitFor(
      'the worker to start',
      async () => {
        if (worker.child.exitCode !== null) throw new Error(`the worker exited with ${worker.child.exitCode}: ${worker.output()}`);
        return /uploading to/.test(worker.output()) || undefined;
      },
      60_000,
    );
    const [simPort, spotPort] = [await freePort(), await freePort()];
    const sim = start(image, compose.services['exchange-sim'].command, { SIM_PORT: String(simPort), SIM_SPOT_PORT: String(spotPort) });
    const [kind, ...check] = compose.services['exchange-sim'].healthcheck.test;
    expect(kind).toBe('CMD');
    const onPort = check.map((arg) => arg.replace(':3100/', `:${simPort}/`));
    await waitFor(
      'the simulator to pass its health check',
      async () => {
        if (sim.child.exitCode !== null) throw new Error(`the simulator exited with ${sim.child.exitCode}: ${sim.output()}`);
        return (await execInContainer(image, env, onPort)).code === 0 || undefined;
      },
      60_000,
    );
    for (const { child } of [worker, sim]) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('fails when a step is broken: the runtime stage without the migrations COPY builds, but its CMD exits', async () => {
    const before = steps.length;
    const withoutMigrations = replay(broken(/^COPY prisma\/migrations .*$/m, ''));
    // Only what follows the change ran again: the installs and the build came from the layer cache.
    expect(steps.slice(before).filter((s) => /RUN .*npm (ci|run build).*: CACHED$/.test(s))).toHaveLength(3);
    expect(existsSync(join(withoutMigrations.root, 'app/prisma'))).toBe(false);
    const api = start(withoutMigrations);
    const [code] = await once(api.child, 'exit');
    expect(code).not.toBe(0);
    expect(api.output()).toMatch(/migrations/);
  });

  it('fails when a step is broken: without the build step, the runtime stage has no dist/ to copy', () => {
    let failure: unknown;
    try {
      replay(broken(/^RUN npm run build$/m, ''));
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ReplayError);
    expect((failure as ReplayError).instruction.args).toBe('--from=build /app/dist ./dist');
    expect((failure as ReplayError).output).toMatch(/does not exist in stage build/);
  });
});
