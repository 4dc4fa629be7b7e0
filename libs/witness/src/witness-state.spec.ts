import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '#libs/signed-note';
import { FileStateStore } from './file-state-store.js';
import { MemoryStateStore, type TreeHead } from './state-store.js';
import { TestLog } from './testing/test-log.js';
import { Witness } from './witness.js';

const WITNESS_KEY = generateKey('witness.example/w1').signerKey;

/** A store that takes its time, so that requests overlap unless the witness keeps them apart; it records every write. */
class SlowStore extends MemoryStateStore {
  readonly written: bigint[] = [];

  override async get(origin: string): Promise<TreeHead | undefined> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return super.get(origin);
  }

  override async set(origin: string, head: TreeHead): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.written.push(head.size);
    return super.set(origin, head);
  }
}

describe('the witness state', () => {
  it("checks and stores one origin's sizes atomically: of two requests from one size, one is cosigned, and the size never goes back", async () => {
    const log = new TestLog('log.example/one').grow(10);
    const store = new SlowStore();
    const witness = new Witness({ key: WITNESS_KEY, logs: [{ origin: log.origin, vkey: log.key.verifierKey }], store });
    await witness.addCheckpoint(await log.body(0));
    log.grow(10);
    // tlog-witness's race: A (10 → 12) and B (10 → 20), both checked before either is stored, would roll back 8 leaves.
    const bodies = [await log.body(10, 12), await log.body(10, 20)];
    const [a, b] = await Promise.all(bodies.map((body) => witness.addCheckpoint(body)));
    expect([a.status, b.status]).toEqual([200, 409]);
    expect(b.body).toBe('12\n');
    expect(store.written).toEqual([10n, 12n]);
  });

  it('never lets the stored size go back under many concurrent requests', async () => {
    const log = new TestLog('log.example/one').grow(64);
    const store = new SlowStore();
    const witness = new Witness({ key: WITNESS_KEY, logs: [{ origin: log.origin, vkey: log.key.verifierKey }], store });
    await witness.addCheckpoint(await log.body(0, 8));
    // Thirty clients that all saw size 8 and each want another size cosigned: one wins, the others learn its size.
    const sizes = Array.from({ length: 30 }, (_, i) => 9 + ((i * 37) % 56));
    const bodies = await Promise.all(sizes.map((size) => log.body(8, size)));
    const answers = await Promise.all(bodies.map((body) => witness.addCheckpoint(body)));
    const cosigned = answers.filter((a) => a.status === 200).map((a) => a.size);
    expect(new Set(cosigned)).toEqual(new Set([BigInt(sizes[0])]));
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 409 && a.body === `${sizes[0]}\n`)).toBe(true);
    expect(store.written).toEqual([8n, BigInt(sizes[0])]);
  });

  it('remembers what it cosigned across a new Witness on the same file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'witness-')), 'state.json');
    const log = new TestLog('log.example/one').grow(10);
    const logs = [{ origin: log.origin, vkey: log.key.verifierKey }];
    const first = new Witness({ key: WITNESS_KEY, logs, store: await FileStateStore.open(path) });
    expect((await first.addCheckpoint(await log.body(0))).status).toBe(200);

    const second = new Witness({ key: WITNESS_KEY, logs, store: await FileStateStore.open(path) });
    expect(await second.addCheckpoint(await log.body(0))).toMatchObject({ status: 409, body: '10\n' });
    const fork = new TestLog(log.origin, log.key).grow(10);
    expect(await second.addCheckpoint(await fork.body(10))).toMatchObject({ status: 409, body: '10\n' });
    log.grow(3);
    expect((await second.addCheckpoint(await log.body(10))).status).toBe(200);
    expect((await FileStateStore.open(path)).snapshot().get(log.origin)).toEqual({ size: 13n, root: log.root() });
  });

  it('cosigns nothing when the store cannot write, and fails the request', async () => {
    const log = new TestLog('log.example/one').grow(10);
    const store = new MemoryStateStore();
    store.set = async () => {
      throw new Error('disk full');
    };
    const witness = new Witness({ key: WITNESS_KEY, logs: [{ origin: log.origin, vkey: log.key.verifierKey }], store });
    await expect(witness.addCheckpoint(await log.body(0))).rejects.toThrow('disk full');
    expect(store.heads.size).toBe(0);
  });
});
