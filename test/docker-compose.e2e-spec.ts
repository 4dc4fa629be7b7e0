import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ENV_VARIABLES, loadConfig } from '#libs/config';

// Docker cannot run on the build machines, so the compose file is checked against the configuration schema instead.
const compose = parse(readFileSync(new URL('../docker-compose.yml', import.meta.url), 'utf8'), { merge: true });
const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
const services = compose.services as Record<string, { environment?: Record<string, unknown>; command?: string[]; profiles?: string[]; image?: string; build?: string }>;

/** The value a variable takes when the user's shell sets nothing: `${NAME:-default}` becomes `default`. */
const resolve = (value: unknown) => String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

describe('docker-compose.yml', () => {
  it('has postgres, redis, api and worker, and the simulator behind the sandbox profile', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'exchange-sim', 'postgres', 'redis', 'worker']);
    expect(services.postgres.image).toMatch(/^postgres:/);
    expect(services.redis.image).toMatch(/^redis:/);
    expect(services['exchange-sim'].profiles).toEqual(['sandbox']);
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
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
    expect(cmd.join(' ')).toBe(scripts['start:api']);
  });

  it('gives api and worker one data directory, so that the keys sandbox mode makes there are the same for both', () => {
    const volumes = (name: string) => (services[name] as { volumes?: string[] }).volumes ?? [];
    for (const name of ['api', 'worker']) {
      expect(services[name].environment!.DATA_DIR).toBe('/data');
      expect(volumes(name)).toContain('gateway-data:/data');
    }
  });
});
