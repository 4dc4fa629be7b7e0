import pg from 'pg';
import { type Harness, type HarnessOptions, startHarness } from './gateway-harness.js';
import { PG_URL, REDIS_URL, servicesAvailable } from './services.js';
import { createTempDatabase } from './temp-database.js';

export interface GatewaySuite {
  /** Undefined when PostgreSQL or Redis cannot be reached (the tests then return early, and CI fails instead). */
  harness?: Harness;
  /** A connection to the suite's database, for checking what was stored. */
  db: pg.Client;
}

/**
 * A gateway for one test file on PostgreSQL (a database of its own) and the machine's Redis, started in beforeAll and
 * stopped in afterAll. `env` adds to the harness's environment; it may be a function of the database URL.
 */
export function gatewaySuite(env: Record<string, string>, options: HarnessOptions = {}): GatewaySuite {
  const suite = {} as GatewaySuite;
  let drop = async () => {};
  beforeAll(async () => {
    if (!(await servicesAvailable(PG_URL, REDIS_URL))) return;
    const temp = await createTempDatabase();
    drop = temp.drop;
    suite.harness = await startHarness({ DATABASE_URL: temp.url, REDIS_URL, ...env }, options);
    suite.db = new pg.Client({ connectionString: temp.url });
    await suite.db.connect();
  }, 60_000);
  afterAll(async () => {
    await suite.db?.end();
    await suite.harness?.close();
    await drop();
  }, 60_000);
  return suite;
}
