// Authors and checks Prisma migrations offline with the WebAssembly schema engine.
//   node scripts/db-migration.mjs create <name>   write prisma/migrations/<timestamp>_<name>/migration.sql
//   node scripts/db-migration.mjs check           exit 1 and print the missing SQL when migrations and schema differ
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultMigrationsDir, diffMigrationsToSchema, LOCKFILE_CONTENT, LOCKFILE_NAME } from './lib/schema-engine.mjs';

const USAGE = 'usage: node scripts/db-migration.mjs create <name> | check';

/** Prisma's directory name: UTC `YYYYMMDDHHMMSS`, an underscore, then the name. */
function migrationDirName(name, now = new Date()) {
  const timestamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${timestamp}_${name}`;
}

async function ensureLockfile(migrationsDir) {
  const file = path.join(migrationsDir, LOCKFILE_NAME);
  await access(file).catch(() => writeFile(file, LOCKFILE_CONTENT));
}

async function create(name) {
  const { changed, sql } = await diffMigrationsToSchema();
  if (!changed) {
    console.log('no changes');
    return 0;
  }
  await mkdir(defaultMigrationsDir, { recursive: true });
  await ensureLockfile(defaultMigrationsDir);
  const dir = path.join(defaultMigrationsDir, migrationDirName(name));
  await mkdir(dir); // not recursive: never overwrite an existing migration
  const file = path.join(dir, 'migration.sql');
  await writeFile(file, sql);
  console.log(`created ${path.relative(process.cwd(), file)}`);
  return 0;
}

async function check() {
  const { changed, sql } = await diffMigrationsToSchema();
  if (!changed) {
    console.log('migrations match prisma/schema.prisma');
    return 0;
  }
  console.error('prisma/schema.prisma has changes that no migration makes.');
  console.error('Run `node scripts/db-migration.mjs create <name>` to add a migration for them.');
  console.error('Missing SQL:\n');
  console.log(sql);
  return 1;
}

const [command, rawName = ''] = process.argv.slice(2);
const name = rawName.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
if (command === 'create' && name) process.exitCode = await create(name);
else if (command === 'check') process.exitCode = await check();
else {
  console.error(USAGE);
  process.exitCode = 2;
}
