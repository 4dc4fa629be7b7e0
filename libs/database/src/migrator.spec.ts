import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMigrations, findMigrationsDir, type MigrationClient } from './migrator.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Answers the migrator's read of `_prisma_migrations` with `recorded`, and everything else with no rows. */
function fakeClient(recorded: object[]): MigrationClient & { sql: string[] } {
  const sql: string[] = [];
  return {
    sql,
    async query(text: string) {
      sql.push(text);
      return { rows: text.startsWith('SELECT migration_name') ? recorded : [] };
    },
  };
}

describe('findMigrationsDir', () => {
  it('finds prisma/migrations from the sources and from the build output', () => {
    const expected = path.join(root, 'prisma', 'migrations');
    expect(findMigrationsDir()).toBe(expected);
    expect(findMigrationsDir(path.join(root, 'dist', 'libs', 'database', 'src'))).toBe(expected);
  });
});

describe('applyMigrations against a recorded history', () => {
  const name = '20250101000000_init';
  const script = 'CREATE TABLE a (id INT);\n';
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'migrator-'));
    await mkdir(path.join(dir, name));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('accepts an applied migration whose line endings changed since, as Prisma does', async () => {
    await writeFile(path.join(dir, name, 'migration.sql'), script.replaceAll('\n', '\r\n'));
    const client = fakeClient([{ migration_name: name, checksum: sha256(script), finished_at: new Date() }]);

    await expect(applyMigrations(client, { migrationsDir: dir })).resolves.toEqual({ applied: [] });
    expect(client.sql.at(-1)).toContain('pg_advisory_unlock');
  });

  it('refuses to go on while a migration that failed earlier is unresolved', async () => {
    await writeFile(path.join(dir, name, 'migration.sql'), script);
    const client = fakeClient([{ migration_name: name, checksum: sha256(script), finished_at: null }]);

    await expect(applyMigrations(client, { migrationsDir: dir })).rejects.toMatchObject({
      code: 'FAILED_MIGRATION_IN_DATABASE',
      migrationName: name,
    });
    expect(client.sql.at(-1)).toContain('pg_advisory_unlock');
  });
});
