import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A secret kept in the data directory (mode 0600), so that it survives restarts like the data does. Created with an
 * exclusive open: when two processes sharing the directory start at once, one writes it and both read the same.
 */
export function readOrCreateSecretFile(dir: string, name: string, create: () => string): string {
  const file = join(dir, name);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `${create()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // The other process may have created the file and not written it yet: give it a moment.
  for (let tries = 0; ; tries++) {
    const text = readFileSync(file, 'utf8').trim();
    if (text || tries === 100) return text;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
}

/**
 * A secret set in the configuration; else, in sandbox mode, one kept in the data directory under `name` (made by
 * `create` the first time); else undefined: outside sandbox mode nothing is generated for the operator.
 */
export function configuredOrSandboxSecret(
  configured: string | undefined,
  config: { sandbox: boolean; dataDir: string },
  name: string,
  create: () => string,
): string | undefined {
  return configured ?? (config.sandbox ? readOrCreateSecretFile(config.dataDir, name, create) : undefined);
}
