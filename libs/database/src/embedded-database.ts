import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGliteServer } from './pglite-server.js';

export interface EmbeddedDatabase {
  /** A postgres:// URL that `pg` and Prisma connect to like any PostgreSQL server. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) on files under `dataDir`, served over the PostgreSQL wire protocol
 * on a private loopback port. Only one process may open a data directory at a time.
 */
export async function startEmbeddedDatabase(dataDir: string, maxConnections = 32): Promise<EmbeddedDatabase> {
  const dir = resolve(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  // Imported on use: processes on a PostgreSQL server (the production layout) never load PGlite.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir);
  // Every socket shares PGlite's one session: the server runs one client's request at a time, keeps a transaction on
  // the socket that opened it, and forwards NOTIFY to the other sockets.
  const server = await PGliteServer.start(db, { host: '127.0.0.1', port: 0, maxConnections });
  return {
    url: `postgresql://postgres@${server.host}:${server.port}/postgres?sslmode=disable`,
    async close() {
      await server.close();
      await db.close();
    },
  };
}
