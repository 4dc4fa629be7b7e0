import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
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
  await initDataDir(dir);
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

// A child's script: create the cluster, then close it cleanly so that the parent finds a directory at rest.
const INITDB = 'require(process.argv[1]).PGlite.create(process.argv[2]).then((db) => db.close())';

/**
 * Runs initdb for a new data directory in a child process. PGlite grows its WebAssembly memory to about 840 MB of RSS
 * during initdb and never returns it (closing the instance leaves about 300 MB behind), while opening an existing
 * directory costs about 290 MB: the child keeps a first `npm start` at the size of every later one.
 */
async function initDataDir(dir: string): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  try {
    await promisify(execFile)(process.execPath, ['-e', INITDB, entry, dir], { timeout: 120_000 });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`could not create the embedded database in ${dir}: ${stderr?.trim() || String(error)}`);
  }
}
