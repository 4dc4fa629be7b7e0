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
  const dir = await createDataDir(dataDir);
  // Imported on use: processes on a PostgreSQL server (the production layout) never load PGlite.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir, { postgresqlconf: SANDBOX_SETTINGS });
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

/**
 * PostgreSQL's shared buffers at 16 MB instead of PGlite's 128 MB: PGlite's WebAssembly memory grows into them and
 * never shrinks, and a sandbox's database is a few MB. Opening a data directory went from 293 MB of RSS to 172 MB.
 */
const SANDBOX_SETTINGS = ['shared_buffers = 16MB', 'wal_buffers = 1MB'];

// A child's script: create the cluster, then close it cleanly so that the parent finds a directory at rest.
const INITDB = 'require(process.argv[1]).PGlite.create(process.argv[2]).then((db) => db.close())';

const creating = new Map<string, Promise<string>>();

/**
 * The PGlite directory under `dataDir`, created (initdb) when new; resolves to its path. A process may call it early,
 * so that the initdb of a first start runs while the gateway's modules load (`npm start` does), and again when it
 * opens the database: the second call waits for the same initdb. Its own import is light (no Prisma, Nest or PGlite).
 */
export function createDataDir(dataDir: string): Promise<string> {
  const dir = resolve(dataDir, 'pglite');
  let created = creating.get(dir);
  if (!created) {
    created = initDataDir(dir).then(() => dir);
    creating.set(dir, created);
    // Shared only while under way: a later call checks the directory again. Whoever opens the database sees a
    // failure; this handler keeps an early call that nobody awaits from crashing the process with it.
    const forget = () => void creating.delete(dir);
    created.then(forget, forget);
  }
  return created;
}

/**
 * Runs initdb for a new data directory in a child process. PGlite grows its WebAssembly memory to about 840 MB of RSS
 * during initdb and never returns it (closing the instance leaves about 300 MB behind), while opening an existing
 * directory costs about 170 MB: the child keeps a first `npm start` at the size of every later one. The child compiles
 * PGlite's WebAssembly with V8's baseline compiler only (--liftoff-only): initdb then takes half the CPU (3.3 s
 * instead of 6.2 s here), which a first start on two cores spends loading its modules at the same time.
 */
async function initDataDir(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  try {
    await promisify(execFile)(process.execPath, ['--liftoff-only', '-e', INITDB, entry, dir], { timeout: 120_000 });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`could not create the embedded database in ${dir}: ${stderr?.trim() || String(error)}`, { cause: error });
  }
}
