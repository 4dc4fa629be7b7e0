import { createHash } from 'node:crypto';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { applyMigrations, findMigrationsDir } from '../libs/database/src/migrator.js';
import { diffMigrationsToSchema, readMigrationsList, withSchemaEngine } from '../scripts/lib/schema-engine.mjs';
import { createTempDatabase } from './support/temp-database.js';

// Every table the schema maps a model to, in name order: what the migrations must create.
const schema = await readFile(new URL('../prisma/schema.prisma', import.meta.url), 'utf8');
const TABLES = [...schema.matchAll(/^model \w+ \{[^}]*@@map\("([^"]+)"\)/gm)].map((m) => m[1]).sort();
const migrationsDir = findMigrationsDir();
const migrationNames = (await readdir(migrationsDir, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

async function tablesOf(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name");
  return rows.map((row) => row.table_name);
}

async function columnsOfMigrationsTable(client: pg.Client): Promise<unknown[]> {
  const { rows } = await client.query(
    `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
     FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
  );
  return rows;
}

async function sha256Of(name: string): Promise<string> {
  const script = await readFile(path.join(migrationsDir, name, 'migration.sql'));
  return createHash('sha256').update(script).digest('hex');
}

interface FreshDatabase {
  url: string;
  connect(): Promise<pg.Client>;
}

/** Runs `fn` with a fresh database of the local PostgreSQL, dropped afterwards with the clients it connected. */
async function withFreshDatabase(fn: (db: FreshDatabase) => Promise<void>): Promise<void> {
  const db = await createTempDatabase();
  const clients: pg.Client[] = [];
  try {
    await fn({
      url: db.url,
      async connect() {
        const client = new pg.Client({ connectionString: db.url });
        clients.push(client);
        await client.connect();
        return client;
      },
    });
  } finally {
    await Promise.all(clients.map((client) => client.end()));
    await db.drop();
  }
}

describe('migrations on PostgreSQL', () => {
  it('applies every migration once, records it as Prisma does, and then does nothing', async () => {
    await withFreshDatabase(async (db) => {
      const client = await db.connect();
      expect(await applyMigrations(client)).toEqual({ applied: migrationNames });
      expect(await tablesOf(client)).toEqual(['_prisma_migrations', ...TABLES]);

      const { rows } = await client.query('SELECT * FROM _prisma_migrations ORDER BY migration_name');
      const expected = await Promise.all(
        migrationNames.map(async (name) => ({
          migration_name: name,
          checksum: await sha256Of(name),
          applied_steps_count: 1,
          logs: null,
          rolled_back_at: null,
        })),
      );
      expect(rows).toMatchObject(expected);
      for (const row of rows) {
        expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(row.finished_at.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      }

      expect(await applyMigrations(client)).toEqual({ applied: [] });
    });
  });

  it('applies each migration once when two processes start together', async () => {
    await withFreshDatabase(async (db) => {
      const [first, second] = await Promise.all([db.connect(), db.connect()]);
      const results = await Promise.all([applyMigrations(first), applyMigrations(second)]);

      expect(results.flatMap((result) => result.applied).sort()).toEqual(migrationNames);
      const { rows } = await first.query('SELECT migration_name, count(*)::int AS times FROM _prisma_migrations GROUP BY 1 ORDER BY 1');
      expect(rows).toEqual(migrationNames.map((name) => ({ migration_name: name, times: 1 })));
    });
  });

  // The WebAssembly engine is the Rust code of `prisma migrate deploy`, so both must agree on the history.
  it('interoperates with Prisma Migrate in both directions', async () => {
    const migrationsList = await readMigrationsList(migrationsDir);
    const filters = { externalTables: [], externalEnums: [] };
    await withFreshDatabase(async (oursDb) => {
      await withFreshDatabase(async (prismasDb) => {
        const ours = await oursDb.connect();
        await applyMigrations(ours);
        await withSchemaEngine(
          async (engine) => {
            expect(await engine.applyMigrations({ migrationsList, filters })).toEqual({ appliedMigrationNames: [] });
            const diagnosis = await engine.diagnoseMigrationHistory({
              migrationsList,
              optInToShadowDatabase: false,
              filters,
            });
            expect(diagnosis).toMatchObject({ editedMigrationNames: [], failedMigrationNames: [], history: null });
          },
          { databaseUrl: oursDb.url },
        );

        await withSchemaEngine(
          async (engine) => {
            const result = await engine.applyMigrations({ migrationsList, filters });
            expect(result).toEqual({ appliedMigrationNames: migrationNames });
          },
          { databaseUrl: prismasDb.url },
        );
        const prismas = await prismasDb.connect();
        expect(await applyMigrations(prismas)).toEqual({ applied: [] });
        expect(await columnsOfMigrationsTable(ours)).toEqual(await columnsOfMigrationsTable(prismas));
      });
    });
  }, 120_000);

  describe('with a copy of the migrations folder', () => {
    let copy: string;
    beforeEach(async () => {
      copy = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
      await cp(migrationsDir, copy, { recursive: true });
    });
    afterEach(() => rm(copy, { recursive: true, force: true }));

    it('refuses to go on when an applied migration was edited, naming it', async () => {
      await withFreshDatabase(async (db) => {
        const client = await db.connect();
        await applyMigrations(client, { migrationsDir: copy });
        const edited = migrationNames[0];
        await appendFile(path.join(copy, edited, 'migration.sql'), '\n-- an afterthought\n');

        await expect(applyMigrations(client, { migrationsDir: copy })).rejects.toMatchObject({
          code: 'MIGRATION_EDITED',
          migrationName: edited,
          message: expect.stringContaining(`Migration ${edited} was edited`),
        });
      });
    });

    it('rolls back a failing migration entirely and names it', async () => {
      await withFreshDatabase(async (db) => {
        const client = await db.connect();
        const broken = '99991231235959_broken';
        await mkdir(path.join(copy, broken));
        await writeFile(path.join(copy, broken, 'migration.sql'), 'CREATE TABLE half_done (id INT);\nSELECT 1 / 0;\n');

        await expect(applyMigrations(client, { migrationsDir: copy })).rejects.toMatchObject({
          code: 'MIGRATION_FAILED',
          migrationName: broken,
          message: `Migration ${broken} failed and was rolled back: division by zero`,
        });
        expect(await tablesOf(client)).toEqual(['_prisma_migrations', ...TABLES]);
        const { rows } = await client.query('SELECT migration_name FROM _prisma_migrations ORDER BY 1');
        expect(rows.map((row) => row.migration_name)).toEqual(migrationNames);
      });
    });
  });
});

describe('migrations on PGlite served over pglite-socket', () => {
  let db: PGlite;
  let server: PGLiteSocketServer;
  let client: pg.Client;

  beforeAll(async () => {
    db = new PGlite();
    server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0 });
    await server.start();
    const [host, port] = server.getServerConn().split(':');
    client = new pg.Client({ host, port: Number(port), user: 'postgres', database: 'postgres' });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.end();
    await server?.stop();
    await db?.close();
  });

  it('applies every migration', async () => {
    expect(await applyMigrations(client)).toEqual({ applied: migrationNames });
    expect(await tablesOf(client)).toEqual(['_prisma_migrations', ...TABLES]);
    expect(await applyMigrations(client)).toEqual({ applied: [] });
  });
});

describe('prisma/migrations against prisma/schema.prisma', () => {
  it('has no drift: the migrations build exactly the schema (node scripts/db-migration.mjs check)', async () => {
    const { changed, sql } = await diffMigrationsToSchema();
    expect(sql).toBe('');
    expect(changed).toBe(false);
  }, 180_000);
});
