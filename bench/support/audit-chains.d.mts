// Types of audit-chains.mjs for the end-to-end tests that seed long chains.
import type pg from 'pg';

export interface SeededHeads {
  logs: { seq: string; hash: string };
  receipts: { seq: string; hash: string };
}

export declare function seedChains(client: pg.Client, options: { accountId?: string; logs: number; body?: (seq: number) => unknown }): Promise<SeededHeads>;

export declare function mixedBody(options?: { smallKb?: number; bigKb?: number; bigUntil?: number }): (seq: number) => unknown;
