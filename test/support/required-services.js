// Whether the services the end-to-end tests need can be reached, decided once when jest reads its configuration
// (jest.config.js): PostgreSQL and Redis on 127.0.0.1 (TEST_DATABASE_URL, TEST_REDIS_URL). Plain JavaScript: jest
// loads its configuration before any TypeScript transform.
import net from 'node:net';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url) {
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

/** The hosts of the services that cannot be reached; none means the end-to-end tests can run. */
export async function missingServices() {
  const missing = [];
  for (const url of [PG_URL, REDIS_URL]) if (!(await reachable(url))) missing.push(new URL(url).host);
  return missing;
}
