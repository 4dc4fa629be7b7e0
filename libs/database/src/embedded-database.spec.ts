import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataDir } from './embedded-database.js';

// `npm start` calls createDataDir before its modules load and again when it opens the database: one initdb for both.
describe('createDataDir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-datadir-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs one initdb for an early call and the call that opens the database, then finds the directory made', async () => {
    const early = createDataDir(dataDir);
    const opening = createDataDir(dataDir);
    expect(opening).toBe(early);
    await expect(opening).resolves.toBe(join(dataDir, 'pglite'));
    expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    // Done: a later call looks at the directory again rather than at the last answer.
    const later = createDataDir(dataDir);
    expect(later).not.toBe(early);
    await expect(later).resolves.toBe(join(dataDir, 'pglite'));
  });

  it('gives its failure to the caller that opens the database, naming the directory', async () => {
    const file = join(dataDir, 'not-a-directory');
    writeFileSync(file, '');
    await expect(createDataDir(file)).rejects.toThrow(/not-a-directory/);
  });
});
