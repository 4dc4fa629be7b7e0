import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatState, parseState, WitnessStateError } from './state-file-format.js';
import type { TreeHead, WitnessStateStore } from './state-store.js';

/**
 * The witness's state in one JSON file, rewritten whole on each change: a temporary file in the same directory,
 * fsynced, renamed over the old one, and the directory fsynced, so that a crash leaves the old file or the new one,
 * never half of either. The heads are held in memory too; one process owns the file.
 */
export class FileStateStore implements WitnessStateStore {
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private heads: ReadonlyMap<string, TreeHead>,
  ) {}

  /**
   * Reads the file (none yet: no origin seen) and writes it back, so that a directory the witness cannot write fails
   * at start rather than at the first cosignature. A file that cannot be read or parsed is a WitnessStateError.
   */
  static async open(path: string): Promise<FileStateStore> {
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new WitnessStateError(`cannot read the witness state file ${path}: ${(error as Error).message}`);
      }
    }
    const store = new FileStateStore(path, text === undefined ? new Map() : parseState(text, path));
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeAtomically(path, formatState(store.heads));
    } catch (error) {
      throw new WitnessStateError(`cannot write the witness state file ${path}: ${(error as Error).message}`);
    }
    return store;
  }

  async get(origin: string): Promise<TreeHead | undefined> {
    return this.heads.get(origin);
  }

  /** Writes are queued, each from the heads as the last one left them, so a slow write never undoes a later one. */
  set(origin: string, head: TreeHead): Promise<void> {
    const write = this.writes.then(async () => {
      const next = new Map(this.heads).set(origin, { size: head.size, root: Buffer.from(head.root) });
      await writeAtomically(this.path, formatState(next));
      // Held in memory only once durable: a failed write leaves the witness with what the file says.
      this.heads = next;
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** Every origin's head, as the file holds it. */
  snapshot(): ReadonlyMap<string, TreeHead> {
    return new Map(this.heads);
  }
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.tmp`;
  try {
    const file = await open(temp, 'w', 0o644);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined); // what is left of it, if anything: the error to report is the first
    throw error;
  }
  // The rename is durable only once the directory entry is.
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
