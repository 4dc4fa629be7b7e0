import pg from 'pg';
import { type Harness, type HarnessOptions, startHarness } from './gateway-harness.js';
import { REDIS_URL } from './services.js';
import { createTempDatabase } from './temp-database.js';

export interface GatewaySuite {
  /** Set in beforeAll (jest.config.js made sure PostgreSQL and Redis answer before any test file ran). */
  harness: Harness;
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
