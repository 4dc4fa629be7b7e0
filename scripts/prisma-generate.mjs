// Generates the Prisma client offline. `prisma generate` does not run the schema engine but insists that one exists,
// and its first use would download a native engine; pointing it at any executable (node itself) avoids that.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const env = { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const result = spawnSync(process.execPath, [cli, 'generate', '--config', 'prisma/prisma.config.ts'], { env, encoding: 'utf8' });
// Quiet on success; everything Prisma said on failure.
if (result.status !== 0) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}\n`);
process.exit(result.status ?? 1);
