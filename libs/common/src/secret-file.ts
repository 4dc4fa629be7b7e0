import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A secret kept in the data directory (mode 0600), so that it survives restarts like the data does. */
export function readOrCreateSecretFile(dir: string, name: string, create: () => string): string {
  const file = join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const secret = create();
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
