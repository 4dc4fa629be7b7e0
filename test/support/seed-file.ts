import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes a simulator seed file (apps/exchange-sim/README.md) to a temp directory of its own; returns its path. */
export function writeSeedFile(accounts: Array<Record<string, unknown>>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'sim-seed-')), 'seed.json');
  writeFileSync(path, JSON.stringify({ accounts }));
  return path;
}
