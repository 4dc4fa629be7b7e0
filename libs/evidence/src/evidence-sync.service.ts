import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { GatewayConfig } from '#libs/config';
import { WeexApiError, type WeexClient } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import { AccountLocks } from './account-lock.js';
import { EvidenceStore } from './evidence-store.repository.js';
import { syncOrders } from './streams/orders.stream.js';
import { syncPlanOrders } from './streams/plan-orders.stream.js';
import type { StreamRun } from './streams/stream-run.js';
import { syncTrades } from './streams/trades.stream.js';
import { STREAMS, type StreamName, SyncStateRepository } from './sync-state.repository.js';
import { DAY_MS } from './time-windows.js';

const SYNCS: Record<StreamName, (run: StreamRun) => Promise<void>> = {
  trades: syncTrades,
  orders: syncOrders,
  plan_orders: syncPlanOrders,
};

export interface StreamOutcome {
  ok: boolean;
  /** Rows inserted or changed. */
  rows: number;
  error?: string;
}

export interface AccountSyncResult {
  accountId: string;
  /** Why the account was not synced: another process holds its lock, the gateway has no client or row for it, or it is shutting down. */
  skipped?: 'locked' | 'no_client' | 'unknown_account' | 'stopping';
  streams: Partial<Record<StreamName, StreamOutcome>>;
}

/**
 * Pulls each account's orders, plan orders and fills from the exchange into PostgreSQL, incrementally (see the
 * streams). One run per account at a time: in this process runs of an account queue up, across processes a PostgreSQL
 * advisory lock lets one through and the others skip. A failing stream is recorded in sync_streams and does not stop
 * the others.
 */
@Injectable()
export class EvidenceSyncService implements OnModuleDestroy {
  private readonly logger = new Logger(EvidenceSyncService.name);
  private readonly runs = new Map<string, Promise<AccountSyncResult>>();
  private readonly unknownOrders = new Map<string, Set<string>>();
  private readonly shutdown = new AbortController();

  constructor(
    private readonly clients: WeexAccountClients,
    private readonly store: EvidenceStore,
    private readonly state: SyncStateRepository,
    private readonly config: GatewayConfig,
    private readonly locks: AccountLocks,
  ) {}

  /** Every account with exchange credentials, one after the other (the sync shares the weight budget with uploads). */
  async syncAll(): Promise<AccountSyncResult[]> {
    const results: AccountSyncResult[] = [];
    for (const accountId of this.clients.accountIds()) {
      if (this.shutdown.signal.aborted) break;
      results.push(await this.syncAccount(accountId));
    }
    return results;
  }

  /** Syncs one account now. A run of this process already under way for it is waited for first, then this one runs. */
  syncAccount(accountId: string): Promise<AccountSyncResult> {
    const previous = this.runs.get(accountId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.runExclusive(accountId));
    this.runs.set(accountId, run);
    const forget = () => {
      if (this.runs.get(accountId) === run) this.runs.delete(accountId);
    };
    run.then(forget, forget);
    return run;
  }

  /** Aborts the exchange calls of runs under way and waits until they have let go of their locks. */
  async stop(): Promise<void> {
    this.shutdown.abort();
    await Promise.allSettled([...this.runs.values()]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  private async runExclusive(accountId: string): Promise<AccountSyncResult> {
    if (this.shutdown.signal.aborted) return { accountId, skipped: 'stopping', streams: {} };
    const client = this.clients.forAccount(accountId);
    if (!client) return { accountId, skipped: 'no_client', streams: {} };
    // The evidence rows reference the account; its row is made by the API at start or by an admin.
    if (!(await this.store.accountExists(accountId))) return { accountId, skipped: 'unknown_account', streams: {} };
    const locked = await this.locks.run(`evidence-sync:${accountId}`, () => this.syncStreams(accountId, client));
    return locked.acquired ? locked.value : { accountId, skipped: 'locked', streams: {} };
  }

  private async syncStreams(accountId: string, client: WeexClient): Promise<AccountSyncResult> {
    const states = await this.state.find(accountId);
    const streams: AccountSyncResult['streams'] = {};
    for (const stream of STREAMS) {
      if (this.shutdown.signal.aborted) break;
      const syncedUntil = states.find((s) => s.stream === stream)?.syncedUntil?.getTime();
      streams[stream] = await this.syncStream(accountId, client, stream, syncedUntil);
    }
    return { accountId, streams };
  }

  private async syncStream(accountId: string, client: WeexClient, stream: StreamName, syncedUntil: number | undefined): Promise<StreamOutcome> {
    const startedAt = new Date();
    await this.state.started(accountId, stream, startedAt);
    let unknownOrders = this.unknownOrders.get(accountId);
    if (!unknownOrders) this.unknownOrders.set(accountId, (unknownOrders = new Set()));
    const run: StreamRun = {
      accountId,
      client,
      store: this.store,
      now: startedAt.getTime(),
      lookbackMs: this.config.evidenceSyncLookbackDays * DAY_MS,
      syncedUntil,
      signal: this.shutdown.signal,
      unknownOrders,
      log: this.logger,
      rows: 0,
      advance: (until) => this.state.advanced(accountId, stream, new Date(until)),
    };
    try {
      await SYNCS[stream](run);
      await this.state.succeeded(accountId, stream, new Date(), run.rows);
      return { ok: true, rows: run.rows };
    } catch (error) {
      const message = describe(error);
      // Stopped by shutdown: not the exchange's fault, and the next run resumes from the last complete window.
      if (this.shutdown.signal.aborted) return { ok: false, rows: run.rows, error: `stopped: ${message}` };
      await this.state.failed(accountId, stream, new Date(), message, run.rows);
      this.logger.warn(`evidence sync of ${stream} for account ${accountId} failed, will try again: ${message}`);
      return { ok: false, rows: run.rows, error: message };
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof WeexApiError) return `${error.kind}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
