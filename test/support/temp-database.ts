import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_URL } from './services.js';

/** A database of its own for one test file, dropped afterwards. */
export async function createTempDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gateway_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
