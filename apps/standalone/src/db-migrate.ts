import 'reflect-metadata';
import { loadConfig } from '#libs/config';
import { prepareDatabase } from '#libs/database';

// `npm run db:migrate`: applies prisma/migrations to DATABASE_URL (or the embedded database under DATA_DIR), offline.
const config = loadConfig();
const database = await prepareDatabase({ url: config.databaseUrl, dataDir: config.dataDir, log: (m) => console.log(m) });
await database.close();
console.log(`migrations applied to ${database.embedded ? `the embedded database in ${config.dataDir}` : 'DATABASE_URL'}`);
