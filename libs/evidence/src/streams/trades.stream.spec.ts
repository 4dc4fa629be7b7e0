import type { Trade, UserTradesRequest, WeexClient } from '#libs/weex-client';
import type { EvidenceStore } from '../evidence-store.repository.js';
import { DAY_MS } from '../time-windows.js';
import type { StreamRun } from './stream-run.js';
import { syncTrades } from './trades.stream.js';

const NOW = 1_800_000_000_000;

/** userTrades as WEEX serves it: filtered, newest first (ties: larger ID first), at most `limit`, no paging. */
function exchangeWith(trades: Trade[]) {
  const calls: UserTradesRequest[] = [];
  const client = {
    async userTrades(req: UserTradesRequest) {
      calls.push(req);
      if (req.endTime! - req.startTime! > 7 * DAY_MS) throw new Error('window over 7 days');
      return trades
        .filter((t) => t.time >= req.startTime! && t.time <= req.endTime! && (req.orderId === undefined || t.orderId === req.orderId))
        .sort((a, b) => b.time - a.time || (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
        .slice(0, req.limit);
    },
  };
  return { client: client as unknown as WeexClient, calls };
}

function runOf(client: WeexClient) {
  const stored = new Map<string, Trade>();
  const warnings: string[] = [];
  const store = {
    async upsertTrades(_: string, trades: readonly Trade[]) {
      let fresh = 0;
      for (const t of trades) if (!stored.has(t.id) && stored.set(t.id, t)) fresh++;
      return fresh;
    },
  };
  const run: StreamRun = {
    accountId: 'a',
    client,
    store: store as unknown as EvidenceStore,
    now: NOW,
    lookbackMs: 30 * DAY_MS,
    signal: new AbortController().signal,
    unknownOrders: new Set(),
    rows: 0,
    advance: async () => {},
    log: { log() {}, error() {}, warn: (m: string) => void warnings.push(m) },
  };
  return { run, stored, warnings };
}

let nextId = 737185556881998000n;
const trade = (time: number, orderId = '737185556881990001'): Trade => ({ id: String(nextId++), orderId, symbol: 'BTCUSDT', time }) as Trade;

describe('syncTrades', () => {
  it('reads every fill of a busy week by narrowing the window end, ties at the page edge included', async () => {
    const trades = Array.from({ length: 250 }, (_, i) => trade(NOW - DAY_MS - Math.floor(i / 3) * 1000));
    const { client, calls } = exchangeWith(trades);
    const { run, stored } = runOf(client);
    await syncTrades(run);
    expect(stored.size).toBe(250);
    expect(run.rows).toBe(250);
    expect(calls.every((c) => c.limit === 100)).toBe(true);
  });

  it('reads a millisecond with more than a page of fills order by order', async () => {
    const at = NOW - 2 * DAY_MS;
    const trades = [
      ...Array.from({ length: 65 }, () => trade(at, '737185556881990001')),
      ...Array.from({ length: 65 }, () => trade(at, '737185556881990002')),
      trade(at - 1),
      trade(at + 1),
    ];
    const { client } = exchangeWith(trades);
    const { run, stored, warnings } = runOf(client);
    await syncTrades(run);
    expect(stored.size).toBe(132);
    expect(warnings).toHaveLength(1);
  });

  it('fails instead of looping when the exchange ignores endTime', async () => {
    const page = Array.from({ length: 100 }, () => trade(NOW + DAY_MS));
    const client = { userTrades: async () => page } as unknown as WeexClient;
    await expect(syncTrades(runOf(client).run)).rejects.toThrow(/does not seem to honour endTime/);
  });

  it('says so when one order has more fills in one millisecond than WEEX can return, and still finishes', async () => {
    const at = NOW - 3 * DAY_MS;
    const { client } = exchangeWith([...Array.from({ length: 120 }, () => trade(at)), trade(at - 5)]);
    const { run, stored, warnings } = runOf(client);
    await syncTrades(run);
    expect(stored.size).toBe(101);
    expect(warnings).toEqual([expect.stringContaining('100 or more fills at'), expect.stringContaining('may be missing')]);
  });
});
