// Types of what test/fault-run.e2e-spec.ts uses of the fault run's core (bench/ is plain JavaScript).
import type { QueryResult } from 'pg';

export interface FaultRunOptions {
  durationS?: number;
  seed?: number;
  faults?: string;
  apis?: number;
  workers?: number;
  agentsPerAccount?: number;
  ratePerS?: number;
  batchShare?: number;
  replayShare?: number;
  drainTimeoutS?: number;
  env?: Record<string, string>;
}

export interface Figures {
  acked: number;
  stored: number;
  uploaded: number;
  duplicateRows: number;
  lost: number;
  ackedIdsMissing: number;
  differentIds: number;
  exchangeDuplicatesWithoutUncertain: number;
  exchange: { uploads: number; duplicates: number };
  replays: { sent: number; sameIds: number };
  [name: string]: unknown;
}

export declare class FaultRun {
  static start(options?: FaultRunOptions): Promise<FaultRun>;
  /** `sent`: marker → account id (`default` for the sandbox account). */
  readonly ledger: { acks: Map<string, Set<string>>; sent: Map<string, string>; ack(marker: string, id: string): void };
  readonly database: { query(sql: string, params?: unknown[]): Promise<QueryResult> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the simulator's /__sim answers, of every shape
  readonly sim: { url: string; control(method: string, path: string, body?: unknown): Promise<any> };
  load(): Promise<void>;
  drain(): Promise<void>;
  check(): Promise<Figures>;
  stop(): Promise<void>;
}
