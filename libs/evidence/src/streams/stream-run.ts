import type { LoggerService } from '@nestjs/common';
import type { WeexClient } from '#libs/weex-client';
import type { EvidenceStore } from '../evidence-store.repository.js';

/** Records the exchange shows late (an order reaches its history when it is final) are read again this far back. */
export const OVERLAP_MS = 5 * 60_000;

/** What a stream's sync works with during one run for one account. */
export interface StreamRun {
  accountId: string;
  client: WeexClient;
  store: EvidenceStore;
  /** The end of this run's range, Unix ms. */
  now: number;
  /** How far back a first run (and any run) reaches. */
  lookbackMs: number;
  /** Where the previous runs got to, Unix ms; undefined before the first success. */
  syncedUntil?: number;
  /** Aborted when the worker shuts down. */
  signal: AbortSignal;
  /** Order IDs the exchange did not know when looked up by this process; not asked again. */
  unknownOrders: Set<string>;
  log: LoggerService;
  /** Rows inserted or changed so far; the stream adds to it as it writes, so a failed run still counts them. */
  rows: number;
  /** Records that everything created up to `until` has been pulled (after each complete window). */
  advance(until: number): Promise<void>;
}
