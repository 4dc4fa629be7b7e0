import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Logger } from '@nestjs/common';
import { parseJson, stringifyJson } from '#libs/common';
import { loadSeedFile } from '../seed/seed-file.js';
import type { SimAccountSeed } from '../sim-accounts.js';
import { ACCOUNT_DATA_KINDS } from './account-data.js';
import type { SimState, SimTrafficOptions } from './sim-state.js';

/** What a saved state gives a starting simulator: the accounts' data as a seed file would, and the live orders. */
export interface SavedState {
  seeds: SimAccountSeed[];
  live: NonNullable<SimTrafficOptions['live']>;
}

/**
 * Reads a state the simulator saved (in the seed-file format, plus the orders that follow the price), laid over
 * `base`; undefined when there is no file yet. Credentials are never saved: they come from `base`.
 */
export async function loadSavedState(path: string, base: readonly SimAccountSeed[]): Promise<SavedState | undefined> {
  if (!existsSync(path)) return undefined;
  const seeds = await loadSeedFile(path, base);
  const file = parseJson(await readFile(path, 'utf8')) as { live?: Record<string, { orders?: unknown[]; plans?: unknown[] }> };
  const ids = (list: unknown[] | undefined) => (list ?? []).map((id) => BigInt(String(id)));
  const live = Object.fromEntries(Object.entries(file.live ?? {}).map(([uid, l]) => [uid, { orders: ids(l.orders), plans: ids(l.plans) }]));
  return { seeds, live };
}

/**
 * Keeps `path` up to date with the state: the start and every change schedule one write of the whole state (coalesced while a
 * write is under way), to a temporary file renamed over the old one, so a crash leaves the old state or the new one.
 */
export class StateFile {
  private readonly logger = new Logger(StateFile.name);
  private writing: Promise<void> = Promise.resolve();
  private pending = false;

  constructor(
    private readonly path: string,
    private readonly state: SimState,
  ) {
    state.onChange(() => this.schedule());
    // Written at once, so that generated data (anchored at this start's clock) is what the next start serves.
    this.schedule();
  }

  /** Waits for the writes scheduled so far. */
  async flush(): Promise<void> {
    await this.writing;
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    this.writing = this.writing
      .then(async () => {
        this.pending = false;
        const temporary = `${this.path}.tmp`;
        await mkdir(dirname(this.path), { recursive: true });
        await writeFile(temporary, stringifyJson(this.snapshot()));
        await rename(temporary, this.path);
      })
      // The next change tries again; the simulator keeps serving from memory meanwhile.
      .catch((error: unknown) => this.logger.error(`could not save the sandbox state to ${this.path}: ${String(error)}`));
  }

  private snapshot(): Record<string, unknown> {
    const accounts = this.state.accounts.map((a) => ({ uid: a.uid, ...Object.fromEntries(ACCOUNT_DATA_KINDS.map((k) => [k, a.data[k]])) }));
    const live = Object.fromEntries(this.state.accounts.map((a) => [a.uid, { orders: [...a.live.orders], plans: [...a.live.plans] }]));
    return { savedAt: Date.now(), accounts, live };
  }
}
