import { Test } from '@nestjs/testing';
import { GatewayConfig } from '#libs/config';
import { WeexApiError, type WeexClient } from '#libs/weex-client';
import { WeexAccountClients } from '#libs/weex-nest';
import { AccountLocks, type Locked } from './account-lock.js';
import { EvidenceStore } from './evidence-store.repository.js';
import { EvidenceSyncService } from './evidence-sync.service.js';
import { type StreamName, SyncStateRepository } from './sync-state.repository.js';

// The sync's decisions in a Nest testing module: which account it skips and why, a failing stream that does not stop
// the others, a shutdown that is not recorded as the exchange's failure, one run per account at a time. The client,
// the store, the sync state and the lock are stand-ins that record what they are asked; test/evidence-sync runs the
// same paths against PostgreSQL and the simulator.

type Calls = Record<'userTrades' | 'openOrders' | 'orderHistory' | 'algoOrders', (signal: AbortSignal) => Promise<unknown>>;

/** A client with no orders and no fills; `override` replaces an endpoint. */
function clientWith(override: Partial<Calls> = {}): WeexClient {
  const calls: Calls = {
    userTrades: async () => [],
    openOrders: async () => [],
    orderHistory: async () => [],
    algoOrders: async () => ({ orders: [], hasMore: false }),
    ...override,
  };
  const endpoint = (name: keyof Calls) => (_query: unknown, options: { signal: AbortSignal }) => calls[name](options.signal);
  return {
    userTrades: endpoint('userTrades'),
    openOrders: endpoint('openOrders'),
    orderHistory: endpoint('orderHistory'),
    algoOrders: endpoint('algoOrders'),
    orderInfo: async () => undefined,
  } as unknown as WeexClient;
}

async function syncWith(options: { clients?: Record<string, WeexClient>; known?: string[]; lockHeld?: boolean } = {}) {
  const clients = options.clients ?? { a: clientWith() };
  const recorded: Array<{ event: 'started' | 'succeeded' | 'failed'; accountId: string; stream: StreamName; error?: string }> = [];
  const locked: string[] = [];
  let inLock = 0;
  let overlapped = false;
  const state = {
    find: async () => [],
    started: async (accountId: string, stream: StreamName) => void recorded.push({ event: 'started', accountId, stream }),
    advanced: async () => undefined,
    succeeded: async (accountId: string, stream: StreamName) => void recorded.push({ event: 'succeeded', accountId, stream }),
    failed: async (accountId: string, stream: StreamName, _at: Date, error: string) => void recorded.push({ event: 'failed', accountId, stream, error }),
  };
  const store = {
    accountExists: async (accountId: string) => (options.known ?? Object.keys(clients)).includes(accountId),
    upsertOrders: async (_a: string, rows: unknown[]) => rows.length,
    upsertPlanOrders: async (_a: string, rows: unknown[]) => rows.length,
    upsertTrades: async (_a: string, rows: unknown[]) => rows.length,
    unsettledOrders: async () => [],
    ordersOfUnknownFills: async () => [],
    oldestLivePlanOrder: async () => undefined,
  };
  const locks = {
    run: async <T>(key: string, run: () => Promise<T>): Promise<Locked<T>> => {
      locked.push(key);
      if (options.lockHeld) return { acquired: false };
      overlapped ||= inLock > 0;
      inLock++;
      try {
        return { acquired: true, value: await run() };
      } finally {
        inLock--;
      }
    },
  };
  const moduleRef = await Test.createTestingModule({
    providers: [
      EvidenceSyncService,
      { provide: WeexAccountClients, useValue: { accountIds: () => Object.keys(clients), forAccount: (id: string) => clients[id] } },
      { provide: EvidenceStore, useValue: store },
      { provide: SyncStateRepository, useValue: state },
      { provide: AccountLocks, useValue: locks },
      { provide: GatewayConfig, useValue: { evidenceSyncLookbackDays: 1 } as GatewayConfig },
    ],
  }).compile();
  return { sync: moduleRef.get(EvidenceSyncService), recorded, locked, overlapped: () => overlapped };
}

describe('EvidenceSyncService', () => {
  it('syncs every stream of an account under its lock and records each as succeeded', async () => {
    const { sync, recorded, locked } = await syncWith();
    const result = await sync.syncAccount('a');
    expect(result).toEqual({ accountId: 'a', streams: { trades: { ok: true, rows: 0 }, orders: { ok: true, rows: 0 }, plan_orders: { ok: true, rows: 0 } } });
    expect(locked).toEqual(['evidence-sync:a']);
    expect(recorded.filter((r) => r.event === 'succeeded').map((r) => r.stream)).toEqual(['trades', 'orders', 'plan_orders']);
  });

  it('says why it skipped an account: no client, no account row, or another process holds the lock', async () => {
    expect(await (await syncWith()).sync.syncAccount('nobody')).toEqual({ accountId: 'nobody', skipped: 'no_client', streams: {} });
    expect(await (await syncWith({ known: [] })).sync.syncAccount('a')).toEqual({ accountId: 'a', skipped: 'unknown_account', streams: {} });
    const held = await syncWith({ lockHeld: true });
    expect(await held.sync.syncAccount('a')).toEqual({ accountId: 'a', skipped: 'locked', streams: {} });
    expect(held.recorded).toEqual([]);
  });

  it('records a failing stream with the error kind and goes on with the others', async () => {
    const refused = new WeexApiError('rate_limited', 'userTrades', 'too many requests', { httpStatus: 429 });
    const { sync, recorded } = await syncWith({ clients: { a: clientWith({ userTrades: async () => Promise.reject(refused) }) } });
    const result = await sync.syncAccount('a');
    expect(result.streams.trades).toEqual({ ok: false, rows: 0, error: 'rate_limited: too many requests' });
    expect(result.streams.orders?.ok).toBe(true);
    expect(result.streams.plan_orders?.ok).toBe(true);
    expect(recorded.filter((r) => r.event === 'failed')).toEqual([
      { event: 'failed', accountId: 'a', stream: 'trades', error: 'rate_limited: too many requests' },
    ]);
  });

  it('does not record a stream cut short by shutdown as failed, and runs nothing after it', async () => {
    let calls = 0;
    // The exchange call waits until the shutdown aborts it, as the client does with its signal.
    const hanging = (signal: AbortSignal) => {
      calls++;
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    };
    const { sync, recorded } = await syncWith({ clients: { a: clientWith({ userTrades: hanging }), b: clientWith() } });
    const all = sync.syncAll();
    while (calls === 0) await new Promise((resolve) => setImmediate(resolve));
    await sync.stop();
    expect(await all).toEqual([{ accountId: 'a', streams: { trades: { ok: false, rows: 0, error: 'stopped: aborted' } } }]);
    expect(recorded.map((r) => `${r.event} ${r.accountId} ${r.stream}`)).toEqual(['started a trades']);
    expect(await sync.syncAccount('b')).toEqual({ accountId: 'b', skipped: 'stopping', streams: {} });
  });

  it('runs one sync of an account at a time in this process: a second request waits for the first, then runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const slowOnce = async () => {
      if (first) {
        first = false;
        await gate;
      }
      return [];
    };
    const { sync, locked, overlapped } = await syncWith({ clients: { a: clientWith({ userTrades: slowOnce }) } });
    const one = sync.syncAccount('a');
    const two = sync.syncAccount('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(locked).toEqual(['evidence-sync:a']);
    release();
    await Promise.all([one, two]);
    expect(locked).toEqual(['evidence-sync:a', 'evidence-sync:a']);
    expect(overlapped()).toBe(false);
  });
});
