import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the migrator needs of a connection; a `pg.Client` or `pg.PoolClient` has it. Use one dedicated connection. */
export interface MigrationClient {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface ApplyMigrationsOptions {
  /** Folder holding `<name>/migration.sql`; default: the nearest `prisma/migrations` above this module. */
  migrationsDir?: string;
  /** Receives one line per migration applied, and a warning when the database knows migrations the folder lacks. */
  log?: (msg: string) => void;
}

export type MigrationErrorCode = 'MIGRATION_FAILED' | 'MIGRATION_EDITED' | 'MIGRATION_MISSING_SCRIPT' | 'FAILED_MIGRATION_IN_DATABASE';

export class MigrationError extends Error {
  constructor(
    readonly code: MigrationErrorCode,
    readonly migrationName: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

/** Prisma Migrate's own lock number, so that this and `prisma migrate deploy` never run at the same time. */
const PRISMA_MIGRATE_LOCK = 72707369;

/** The table exactly as Prisma's schema engine creates it on PostgreSQL. */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

interface MigrationFile {
  name: string;
  script: Buffer;
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/**
 * Applies, in name order and each in its own transaction, every migration of the folder not yet recorded in
 * `_prisma_migrations`, recording it the way `prisma migrate deploy` does. Holds Prisma's advisory lock meanwhile.
 * Throws a {@link MigrationError} naming the migration when one fails, or when an applied one was edited since.
 */
export async function applyMigrations(client: MigrationClient, options: ApplyMigrationsOptions = {}): Promise<{ applied: string[] }> {
  const log = options.log ?? (() => {});
  const migrations = await readMigrations(options.migrationsDir ?? findMigrationsDir());
  await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
  try {
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query('SELECT migration_name, checksum, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL');
    const recorded = new Map((rows as MigrationRow[]).map((row) => [row.migration_name, row]));
    verifyHistory(migrations, recorded);
    const unknown = [...recorded.keys()].filter((name) => !migrations.some((m) => m.name === name));
    if (unknown.length > 0) log(`the database has migrations this build does not know: ${unknown.join(', ')}`);
    const applied: string[] = [];
    for (const migration of migrations.filter((m) => !recorded.has(m.name))) {
      const started = Date.now();
      await applyOne(client, migration);
      log(`applied migration ${migration.name} in ${Date.now() - started} ms`);
      applied.push(migration.name);
    }
    return { applied };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]);
  }
}

/** The nearest `prisma/migrations` above this module: found from the sources and from `dist/` alike. */
export function findMigrationsDir(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`No prisma/migrations folder found above ${from}`);
  }
}

async function readMigrations(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(migrationsDir, name, 'migration.sql');
      const script = await readFile(file).catch((cause: unknown) => {
        throw new MigrationError('MIGRATION_MISSING_SCRIPT', name, `Migration ${name}: cannot read ${file}`, { cause });
      });
      return { name, script };
    }),
  );
}

function verifyHistory(migrations: MigrationFile[], recorded: Map<string, MigrationRow>): void {
  for (const row of recorded.values()) {
    // Prisma leaves a failed migration's row unfinished, and refuses to go on until someone resolves it.
    if (row.finished_at === null) {
      throw new MigrationError(
        'FAILED_MIGRATION_IN_DATABASE',
        row.migration_name,
        `Migration ${row.migration_name} failed earlier and is recorded as unfinished; ` + 'resolve it with `prisma migrate resolve` before migrating again',
      );
    }
  }
  for (const migration of migrations) {
    const row = recorded.get(migration.name);
    if (row && !checksumMatches(migration.script, row.checksum)) {
      throw new MigrationError(
        'MIGRATION_EDITED',
        migration.name,
        `Migration ${migration.name} was edited after it was applied: ` +
          `its checksum is ${checksum(migration.script)}, the database recorded ${row.checksum}`,
      );
    }
  }
}

async function applyOne(client: MigrationClient, migration: MigrationFile): Promise<void> {
  await client.query('BEGIN');
  try {
    const id = randomUUID();
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at)
       VALUES ($1, $2, $3, clock_timestamp())`,
      [id, checksum(migration.script), migration.name],
    );
    // No parameters: the simple query protocol, which runs a script of several statements.
    await client.query(migration.script.toString('utf8'));
    await client.query(
      `UPDATE _prisma_migrations SET applied_steps_count = applied_steps_count + 1, finished_at = clock_timestamp()
       WHERE id = $1`,
      [id],
    );
    await client.query('COMMIT');
  } catch (cause) {
    await client.query('ROLLBACK');
    const reason = cause instanceof Error ? cause.message : String(cause);
    const message = `Migration ${migration.name} failed and was rolled back: ${reason}`;
    throw new MigrationError('MIGRATION_FAILED', migration.name, message, { cause });
  }
}

function checksum(script: Buffer | string): string {
  return createHash('sha256').update(script).digest('hex');
}

/** Prisma's comparison: the file may have changed line endings since (git on Windows), nothing else. */
function checksumMatches(script: Buffer, recorded: string): boolean {
  const text = script.toString('utf8');
  const variants = [script, text.replaceAll('\r\n', '\n'), text.replaceAll('\n', '\r\n')];
  return variants.some((variant) => checksum(variant) === recorded);
}
