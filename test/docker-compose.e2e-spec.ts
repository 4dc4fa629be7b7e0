import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ENV_VARIABLES, loadConfig } from '#libs/config';
import { parseDockerfile } from './support/dockerfile-replay.js';

// Docker cannot run on the build machines, so the compose file is checked against the configuration schema instead.
const compose = parse(readFileSync(new URL('../docker-compose.yml', import.meta.url), 'utf8'), { merge: true });
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
// The npm scripts `exec` node, so that npm's signals reach it rather than the shell between them; a container runs node,
// with the variables the scripts set before it in the image's environment (checked below).
const SCRIPT_ENV = /^((?:[A-Z_]+=\S+ )*)exec /;
const scripts = Object.fromEntries(Object.entries(packageJson.scripts).map(([name, command]) => [name, command.replace(SCRIPT_ENV, '')]));
const scriptEnv = (name: string) => (SCRIPT_ENV.exec(packageJson.scripts[name])?.[1] ?? '').split(' ').filter(Boolean);
interface Service {
  environment?: Record<string, unknown>;
  command?: string[];
  profiles?: string[];
  image?: string;
  build?: string;
  pull_policy?: string;
  restart?: string;
  healthcheck?: { test?: string[]; disable?: boolean };
  ports?: string[];
  depends_on?: Record<string, { condition: string; required?: boolean }>;
}
const services = compose.services as Record<string, Service>;
const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
const GATEWAY = ['api', 'worker', 'exchange-sim'];

/** The value a variable takes when the user's shell sets nothing: `${NAME:-default}` becomes `default`. */
const resolve = (value: unknown) => String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

describe('docker-compose.yml', () => {
  it('has postgres, redis, api and worker, and the simulator behind the sim profile', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'exchange-sim', 'postgres', 'redis', 'witness', 'worker']);
    expect(services.witness.profiles).toEqual(['witness']);
    expect(services.postgres.image).toMatch(/^postgres:/);
    expect(services.redis.image).toMatch(/^redis:/);
    expect(services['exchange-sim'].profiles).toEqual(['sim']);
  });

  it('builds the one image once, from the Dockerfile, and runs api, worker and simulator from it', () => {
    const builders = Object.entries(services)
      .filter(([, service]) => service.build !== undefined)
      .map(([name]) => name);
    expect(builders).toEqual(['api']);
    expect(services.api.build).toBe('.');
    // Built from source, never pulled: the name is not a published image, and someone else's must not be run.
    expect(services.api.pull_policy).toBe('build');
    for (const name of GATEWAY) expect(services[name].image).toBe(services.api.image);
    for (const name of ['worker', 'exchange-sim']) expect(services[name].pull_policy).toBe('never');
  });

  it("publishes ports on the host's loopback only: /metrics, /docs and the simulator's /__sim need no auth", () => {
    const published = Object.entries(services).flatMap(([name, service]) => (service.ports ?? []).map((port) => [name, port]));
    expect(published.length).toBeGreaterThan(0);
    expect(published.filter(([, port]) => !port.startsWith('127.0.0.1:'))).toEqual([]);
  });

  it('restarts every service that stops', () => {
    for (const [name, service] of Object.entries(services)) expect({ name, restart: service.restart }).toEqual({ name, restart: 'unless-stopped' });
  });

  it('checks the health of what others wait for, and they wait until it is healthy', () => {
    // The image's own check: the API's readiness, with node's fetch (slim images have no curl).
    const healthcheck = parseDockerfile(dockerfile)
      .stages.at(-1)!
      .steps.find((step) => step.op === 'HEALTHCHECK')!;
    expect(JSON.parse(/CMD (\[.*\])$/.exec(healthcheck.args)![1]).join(' ')).toMatch(/^node -e fetch\(.*\/health\/ready`\)/);
    const checked = (name: string) => {
      const { healthcheck, image } = services[name];
      if (healthcheck?.disable) return false;
      return (healthcheck?.test?.length ?? 0) > 0 || image === services.api.image;
    };
    expect(services.api.healthcheck).toBeUndefined();
    for (const name of ['postgres', 'redis', 'exchange-sim']) expect(services[name].healthcheck?.test?.length).toBeGreaterThan(0);
    // The worker serves no HTTP, so the API's check cannot be its.
    expect(services.worker.healthcheck).toEqual({ disable: true });
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, how] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, condition: how.condition, checked: checked(dependency) }).toEqual({
          name,
          dependency,
          condition: 'service_healthy',
          checked: true,
        });
        // A dependency behind a profile is optional, or the default `up` would refuse to start.
        if (services[dependency].profiles) expect(how.required).toBe(false);
      }
    }
    expect(Object.keys(services.api.depends_on!).sort()).toEqual(['exchange-sim', 'postgres', 'redis']);
    expect(Object.keys(services.worker.depends_on!).sort()).toEqual(['api', 'exchange-sim', 'postgres', 'redis']);
    // The simulator's check asks an endpoint it serves, on the port it listens on.
    const simCheck = services['exchange-sim'].healthcheck!.test!.join(' ');
    const simUrl = /http:\/\/127\.0\.0\.1:(\d+)(\/[\w/]+)/.exec(simCheck)!;
    expect(simUrl[1]).toBe(String(services['exchange-sim'].environment!.SIM_PORT));
    expect(readFileSync(new URL('../apps/exchange-sim/src/market/market.controller.ts', import.meta.url), 'utf8')).toContain(`'${simUrl[2]}'`);
  });

  it.each(['api', 'worker', 'exchange-sim'])('%s uses only configuration variables, and values the config accepts', (name) => {
    const env = services[name].environment ?? {};
    for (const key of Object.keys(env)) expect(Object.keys(ENV_VARIABLES)).toContain(key);
    const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, resolve(v)]));
    expect(() => loadConfig(resolved)).not.toThrow();
  });

  it('runs api and worker on PostgreSQL and Redis, and each process from its build output', () => {
    for (const name of ['api', 'worker']) {
      const config = loadConfig(Object.fromEntries(Object.entries(services[name].environment!).map(([k, v]) => [k, resolve(v)])));
      expect(config.queueBackend).toBe('redis');
      expect(config.embeddedDatabase).toBe(false);
      expect(config.weex.baseUrl).toBe('http://exchange-sim:3100');
    }
    // The same commands, node flags included, as `npm run start:api` etc. (which the benchmark runs).
    const command = (name: string) => services[name].command?.join(' ');
    expect(command('api')).toBe(scripts['start:api']);
    expect(command('worker')).toBe(scripts['start:worker']);
    expect(command('exchange-sim')).toBe(scripts['start:sim']);
    expect(command('api')).toMatch(/^node .*dist\/apps\/api\/src\/main\.js$/);
    expect(command('worker')).toMatch(/^node .*dist\/apps\/worker\/src\/main\.js$/);
  });

  it("builds an image whose default command is the API's, as `npm run start:api` runs it", () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
    expect(cmd.join(' ')).toBe(scripts['start:api']);
    // The variables start:api and start:worker set before node (MALLOC_ARENA_MAX) are the runtime image's, for both.
    const runtime = parseDockerfile(dockerfile).stages.at(-1)!;
    const imageEnv = runtime.steps.filter((step) => step.op === 'ENV').flatMap((step) => step.args.split(' '));
    for (const name of ['start:api', 'start:worker']) {
      expect(scriptEnv(name)).toEqual(['MALLOC_ARENA_MAX=2']);
      for (const pair of scriptEnv(name)) expect(imageEnv).toContain(pair);
    }
  });

  it('gives api and worker one data directory, so that the keys sandbox mode makes there are the same for both', () => {
    const volumes = (name: string) => (services[name] as { volumes?: string[] }).volumes ?? [];
    for (const name of ['api', 'worker']) {
      expect(services[name].environment!.DATA_DIR).toBe('/data');
      expect(volumes(name)).toContain('gateway-data:/data');
    }
  });
});
