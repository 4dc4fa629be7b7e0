import { Inject, Injectable, Logger, type LoggerService } from '@nestjs/common';
import pg from 'pg';
import { DATABASE_URL } from '#libs/database';

export type Locked<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs `run` while holding the PostgreSQL advisory lock named `key` (hashed to 64 bits), on a connection of its own
 * that lives exactly as long as the run; without waiting when another session holds it. A session lock rather than a
 * transaction-scoped one: the run makes exchange calls that may wait for weight budget, and a transaction held that
 * long would pin a pooled connection (and, on embedded PGlite, the whole database). If the connection drops, the lock
 * is gone and another worker may start the same sync: harmless, every write is an idempotent upsert.
 */
export async function withAdvisoryLock<T>(databaseUrl: string, key: string, log: LoggerService, run: () => Promise<T>): Promise<Locked<T>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', (error) => log.warn(`advisory lock connection for ${key} lost: ${error.message}`));
  await client.connect();
  try {
    const { rows } = await client.query<{ acquired: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS acquired', [key]);
    if (!rows[0].acquired) return { acquired: false };
    try {
      return { acquired: true, value: await run() };
    } finally {
      // Closing the session below releases the lock too; the explicit unlock only makes it prompt.
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch((error: Error) => log.warn(`unlock of ${key}: ${error.message}`));
    }
  } finally {
    await client.end().catch((error: Error) => log.warn(`closing the lock connection for ${key}: ${error.message}`));
  }
}

/** {@link withAdvisoryLock} on the gateway's database, as a provider: a unit test of its callers gives its own. */
@Injectable()
export class AccountLocks {
  private readonly logger = new Logger(AccountLocks.name);

  constructor(@Inject(DATABASE_URL) private readonly databaseUrl: string) {}

  run<T>(key: string, run: () => Promise<T>): Promise<Locked<T>> {
    return withAdvisoryLock(this.databaseUrl, key, this.logger, run);
  }
}
