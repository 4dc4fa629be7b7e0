import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStateStore } from './file-state-store.js';
import { WitnessStateError } from './state-file-format.js';

const ROOT = Buffer.alloc(32, 9);
const dir = () => mkdtempSync(join(tmpdir(), 'witness-state-'));

describe('FileStateStore', () => {
  it('creates the file (and its directory) at open, then keeps every head across a reopen', async () => {
    const path = join(dir(), 'nested', 'witness-state.json');
    const store = await FileStateStore.open(path);
    expect(readFileSync(path, 'utf8')).toBe('{}\n');
    await store.set('a.example/log', { size: 2n ** 63n - 1n, root: ROOT });
    await store.set('b.example/log', { size: 3n, root: ROOT });
    expect(JSON.parse(readFileSync(path, 'utf8'))['a.example/log']).toEqual({ size: '9223372036854775807', root: ROOT.toString('base64') });
    const reopened = await FileStateStore.open(path);
    expect(await reopened.get('a.example/log')).toEqual({ size: 2n ** 63n - 1n, root: ROOT });
    expect(await reopened.get('b.example/log')).toEqual({ size: 3n, root: ROOT });
    expect(await reopened.get('c.example/log')).toBeUndefined();
  });

  it('keeps every one of many concurrent writes, and leaves no temporary file', async () => {
    const base = dir();
    const path = join(base, 'state.json');
    const store = await FileStateStore.open(path);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`log-${i}`, { size: BigInt(i), root: ROOT })));
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')))).toHaveLength(20);
    expect(readdirSync(base)).toEqual(['state.json']);
  });

  it('is whole at every moment a reader looks while it is rewritten', async () => {
    const path = join(dir(), 'state.json');
    const store = await FileStateStore.open(path);
    let writing = true;
    const writes = (async () => {
      for (let i = 1; i <= 50; i++) await store.set('a', { size: BigInt(i), root: ROOT });
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      expect(() => JSON.parse(readFileSync(path, 'utf8'))).not.toThrow();
      reads++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writes;
    expect(reads).toBeGreaterThan(0);
    expect((await FileStateStore.open(path)).snapshot().get('a')?.size).toBe(50n);
  });

  it('refuses to open a corrupted file, rather than start empty and let a log roll back', async () => {
    const path = join(dir(), 'state.json');
    writeFileSync(path, '{"a.example/log": {"size": "12", "root": "');
    await expect(FileStateStore.open(path)).rejects.toThrow(WitnessStateError);
    await expect(FileStateStore.open(path)).rejects.toThrow(/is unusable: not valid JSON .*Refusing to start/);
    writeFileSync(path, '');
    await expect(FileStateStore.open(path)).rejects.toThrow(/not valid JSON/);
  });

  it('fails a write it cannot make, and keeps the head it had', async () => {
    const path = join(dir(), 'state.json');
    const store = await FileStateStore.open(path);
    await store.set('a', { size: 1n, root: ROOT });
    mkdirSync(`${path}.tmp`); // the temporary file cannot be opened
    await expect(store.set('a', { size: 2n, root: ROOT })).rejects.toThrow(/EISDIR/);
    expect((await store.get('a'))?.size).toBe(1n);
    expect(JSON.parse(readFileSync(path, 'utf8')).a.size).toBe('1');
    expect(existsSync(`${path}.tmp`)).toBe(true);
  });

  it('says so at open when it cannot read or write the file', async () => {
    const base = dir();
    writeFileSync(join(base, 'file'), '');
    await expect(FileStateStore.open(join(base, 'file', 'state.json'))).rejects.toThrow(/cannot read the witness state file .*ENOTDIR/);
    mkdirSync(join(base, 'state.json.tmp'));
    await expect(FileStateStore.open(join(base, 'state.json'))).rejects.toThrow(/cannot write the witness state file .*state\.json: EISDIR/);
  });
});
