import net from 'node:net';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * Whether the local PostgreSQL and Redis can be reached. Where one cannot, the tests that need it say so and are
 * skipped; with CI=true that is a failure instead, so CI never passes by skipping.
 */
export async function servicesAvailable(...urls: string[]): Promise<boolean> {
  const missing: string[] = [];
  for (const url of urls) if (!(await reachable(url))) missing.push(new URL(url).host);
  if (missing.length === 0) return true;
  const message = `cannot reach ${missing.join(' and ')}; start PostgreSQL and Redis (see .ci/run)`;
  if (process.env.CI === 'true') throw new Error(`${message}; with CI=true this is a failure, not a skip`);
  console.warn(`SKIPPED: ${message}`);
  return false;
}
