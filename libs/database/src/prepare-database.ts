import pg from 'pg';
import { startEmbeddedDatabase } from './embedded-database.js';
import { applyMigrations } from './migrator.js';

export interface PreparedDatabase {
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Makes the database ready before any module starts: PGlite under `dataDir` when no URL is given, then the
 * migrations under prisma/migrations, applied offline and safely when several processes start at once.
 */
export async function prepareDatabase(options: { url?: string; dataDir: string; log?: (message: string) => void }): Promise<PreparedDatabase> {
  const embedded = options.url ? undefined : await startEmbeddedDatabase(options.dataDir);
  const url = options.url ?? embedded!.url;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await applyMigrations(client, { log: options.log });
  } finally {
    await client.end();
  }
  return { url, embedded: Boolean(embedded), close: async () => embedded?.close() };
}
