import { createServer } from 'node:net';
import { once } from 'node:events';
import { spawnChild } from './support/child-processes.js';
import { REDIS_URL } from './support/services.js';
import { createTempDatabase } from './support/temp-database.js';

// What an operator sees when a process cannot start: one JSON line per problem (stdout is not a terminal here),
// exit code 1, no stack trace, no credentials. `npm test` builds first, so dist/ is the code under test.
const API = new URL('../dist/apps/api/src/main.js', import.meta.url).pathname;
const WORKER = new URL('../dist/apps/worker/src/main.js', import.meta.url).pathname;

async function run(main: string, env: Record<string, string>): Promise<{ code: number | null; lines: Array<{ level: number; msg: string }>; text: string }> {
  const child = spawnChild(process.execPath, [main], { env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  const lines = text.split('\n').filter((line) => line !== '');
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  expect(text).not.toMatch(/\n\s+at /);
  return { code, lines: lines.map((line) => JSON.parse(line)), text };
}

const fatal = (lines: Array<{ level: number; msg: string }>) => lines.filter((line) => line.level === 60).map((line) => line.msg);

describe('a process that cannot start', () => {
  it('names each bad variable', async () => {
    const { code, lines } = await run(API, { PORT: 'abc', SHUTDOWN_TIMEOUT_MS: '5' });
    expect(code).toBe(1);
    // One line per variable, even where a value breaks several rules.
    expect(fatal(lines)).toEqual([
      'bad configuration: PORT: value must be an integer number',
      expect.stringMatching(/^bad configuration: SHUTDOWN_TIMEOUT_MS: /),
    ]);
  });

  it('names an unreachable PostgreSQL by host and port, never its password', async () => {
    const { code, lines, text } = await run(API, { DATABASE_URL: 'postgres://gw:s3cret-pw@127.0.0.1:1/gateway', REDIS_URL });
    expect(code).toBe(1);
    expect(fatal(lines)).toEqual([expect.stringMatching(/^PostgreSQL \(DATABASE_URL\) at 127\.0\.0\.1:1 cannot be reached: .*ECONNREFUSED/)]);
    expect(text).not.toContain('s3cret-pw');
  });

  it('names an unreachable Redis, and a port in use', async () => {
    const temp = await createTempDatabase();
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const redis = await run(WORKER, { DATABASE_URL: temp.url, REDIS_URL: 'redis://:r3dis-pw@127.0.0.1:1' });
      expect(redis.code).toBe(1);
      expect(fatal(redis.lines)).toEqual([expect.stringMatching(/^Redis \(REDIS_URL\) at 127\.0\.0\.1:1 cannot be reached/)]);
      expect(redis.text).not.toContain('r3dis-pw');

      const port = String((taken.address() as { port: number }).port);
      const busy = await run(API, { DATABASE_URL: temp.url, REDIS_URL, PORT: port });
      expect(busy.code).toBe(1);
      expect(fatal(busy.lines)).toEqual([`cannot listen on 127.0.0.1:${port}: the port is in use`]);
    } finally {
      taken.close();
      await temp.drop();
    }
  });
});
