import { type AccountSyncResult, EvidenceSyncService } from '#libs/evidence';
import { type Harness, startHarness } from './support/gateway-harness.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { writeSeedFile } from './support/seed-file.js';
import { waitFor } from './support/wait-for.js';

// This database's advisory locks only: other test files' databases on the same server hold their own.
const ADVISORY_LOCKS =
  "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())";

// Test bodies are read loosely and checked by the assertions.
const json = (res: Response): Promise<any> => res.json();

const UID = '8000000001';
const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.now();

// IDs above 2^53: a JS number would lose their last digits.
const OPEN_IDS = ['737185556881998101', '737185556881998102', '737185556881998103'];
const [TA, TB, TC, TD] = ['737185556881998201', '737185556881998202', '737185556881998203', '737185556881998204'];
const OLD_ORDER = '737185556881998299';
const CROWDED_MS = NOW - 2 * DAY + 12_345;

const tradeId = (n: number) => String(737185556881900000n + BigInt(n));

/**
 * 1100 final orders over 80 days (more than one page of order history), one order from 100 days ago (before the
 * lookback), three open orders, and 380 fills in one week: 250 of orders TA and TB three to a millisecond, and 130 of
 * orders TC and TD in one single millisecond. Plan orders are generated around the orders.
 */
const seedFile = writeSeedFile([
  {
    uid: UID,
    orders: [
      { orderId: OLD_ORDER, status: 'FILLED', symbol: 'BTCUSDT', time: NOW - 100 * DAY },
      ...Array.from({ length: 1100 }, (_, i) => ({ status: i % 2 ? 'CANCELED' : 'FILLED', time: NOW - HOUR - Math.floor((i * 80 * DAY) / 1100) })),
      ...OPEN_IDS.map((orderId, i) => ({ orderId, status: 'NEW', type: 'LIMIT', symbol: 'ETHUSDT', time: NOW - (i + 2) * HOUR })),
      ...[TA, TB].map((orderId) => ({ orderId, status: 'FILLED', symbol: 'BTCUSDT', time: NOW - 3 * DAY - HOUR })),
      ...[TC, TD].map((orderId) => ({ orderId, status: 'FILLED', symbol: 'BTCUSDT', time: CROWDED_MS - HOUR })),
    ],
    trades: [
      ...Array.from({ length: 250 }, (_, i) => ({
        id: tradeId(i),
        orderId: i % 2 ? TA : TB,
        symbol: 'BTCUSDT',
        time: NOW - 3 * DAY + Math.floor(i / 3) * 60_000,
      })),
      ...Array.from({ length: 130 }, (_, i) => ({ id: tradeId(1000 + i), orderId: i % 2 ? TC : TD, symbol: 'BTCUSDT', time: CROWDED_MS })),
    ],
  },
]);

describe('evidence sync', () => {
  const suite = gatewaySuite({ EVIDENCE_SYNC_INTERVAL_MS: '0' }, { simulator: { seedFile } });
  const sync = (): Promise<AccountSyncResult> => suite.harness!.gateway.worker!.get(EvidenceSyncService).syncAccount('default');
  const sim = () => suite.harness!.simulator.state.account(UID)!.data;
  const uidWeight = () => suite.harness!.simulator.state.stats().weight.byUid[UID]?.used ?? 0;
  const ids = async (sql: string) => (await suite.db.query(sql)).rows.map((r) => r.id as string).sort();
  const faults = (method: 'PUT' | 'DELETE', body?: unknown) =>
    fetch(`${suite.harness!.simulator.url}/__sim/faults`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const syncState = async () => {
    const res = await fetch(`${suite.harness!.apiUrl}/v1/evidence/sync`, { headers: { authorization: `Bearer ${suite.harness!.agentKey}` } });
    expect(res.status).toBe(200);
    const body = await json(res);
    return Object.fromEntries(body.streams.map((s: { stream: string }) => [s.stream, s])) as Record<string, any>;
  };
  let firstRunWeight = 0;
  let storedOrders: string[] = [];

  it('pulls every order, plan order and fill of the lookback, digit for digit', async () => {
    const before = Date.now();
    const weightBefore = uidWeight();
    const result = await sync();
    const after = Date.now();
    firstRunWeight = uidWeight() - weightBefore;
    expect(result.skipped).toBeUndefined();
    expect(Object.values(result.streams).map((s) => s.ok)).toEqual([true, true, true]);

    const data = sim();
    const inLookback = (time: number) => time >= NOW - 90 * DAY;
    const expectedOrders = data.orders
      .filter((o) => inLookback(o.time))
      .map((o) => String(o.orderId))
      .sort();
    expect(expectedOrders).toHaveLength(1107);
    // order/history also lists the plan orders that ended untriggered, under their algoId (ccxt's capture).
    const ended = data.planOrders.filter((p) => ['CANCELED', 'EXPIRED'].includes(p.algoStatus));
    const endedSince = (from: number) => ended.filter((p) => p.createTime >= from - 90 * DAY).map((p) => String(p.algoId));
    storedOrders = await ids("SELECT order_id::text AS id FROM exchange_orders WHERE account_id = 'default'");
    expect(storedOrders).toEqual(expect.arrayContaining([...expectedOrders, ...endedSince(after)]));
    expect([...expectedOrders, ...endedSince(before)]).toEqual(expect.arrayContaining(storedOrders));
    expect(storedOrders.length).toBeGreaterThan(expectedOrders.length);
    expect(await ids('SELECT trade_id::text AS id FROM exchange_trades')).toEqual(data.trades.map((t) => String(t.id)).sort());
    expect(data.trades).toHaveLength(380);

    // Generated plan orders lie anywhere in 120 days: the run's own start decides the edge of its lookback.
    const plans = await ids('SELECT algo_id::text AS id FROM exchange_plan_orders');
    const surely = data.planOrders.filter((p) => p.createTime >= after - 90 * DAY).map((p) => String(p.algoId));
    const possibly = data.planOrders.filter((p) => p.createTime >= before - 90 * DAY).map((p) => String(p.algoId));
    expect(plans).toEqual(expect.arrayContaining(surely));
    expect(possibly).toEqual(expect.arrayContaining(plans));
    expect(plans.length).toBeLessThan(data.planOrders.length);
    const triggered = data.planOrders.find((p) => p.algoStatus === 'TRIGGERED' && plans.includes(String(p.algoId)))!;
    const { rows: planRows } = await suite.db.query('SELECT actual_order_id::text AS actual FROM exchange_plan_orders WHERE algo_id = $1::bigint', [
      String(triggered.algoId),
    ]);
    expect(planRows).toEqual([{ actual: String(triggered.actualOrderId) }]);

    // The stored JSON is the normalised record, IDs as strings; the columns agree with it.
    const { rows } = await suite.db.query('SELECT status, side, type, symbol, data FROM exchange_orders WHERE order_id = $1::bigint', [OPEN_IDS[0]]);
    expect(rows[0]).toMatchObject({ status: 'NEW', type: 'LIMIT', symbol: 'ETHUSDT' });
    expect(JSON.parse(rows[0].data)).toMatchObject({ orderId: OPEN_IDS[0], status: 'NEW', symbol: 'ETHUSDT' });
    const { rows: fill } = await suite.db.query('SELECT order_id::text AS order_id, data FROM exchange_trades WHERE trade_id = $1::bigint', [tradeId(1000)]);
    expect(fill[0].order_id).toBe(TD);
    expect(JSON.parse(fill[0].data)).toMatchObject({ id: tradeId(1000), orderId: TD });

    const streams = await syncState();
    for (const name of ['orders', 'trades', 'plan_orders']) {
      expect(streams[name]).toMatchObject({ ok: true, lastError: null, lastRows: expect.any(Number) });
      expect(Date.parse(streams[name].syncedUntil)).toBeGreaterThanOrEqual(before);
    }
    expect(streams.trades.lastRows).toBe(380);
    expect(streams.orders.totalRows).toBe(String(storedOrders.length));
    // No advisory lock is left behind.
    expect((await suite.db.query(ADVISORY_LOCKS)).rows[0].n).toBe(0);
  }, 60_000);

  it('adds nothing on a second run, and costs a fraction of the first', async () => {
    const weightBefore = uidWeight();
    const result = await sync();
    const cost = uidWeight() - weightBefore;
    expect(result.streams).toEqual({ trades: { ok: true, rows: 0 }, orders: { ok: true, rows: 0 }, plan_orders: { ok: true, rows: 0 } });
    // One call per stream: fills (5), open orders (3), order history (10), plan orders (10).
    expect(cost).toBeLessThanOrEqual(28);
    expect(cost * 4).toBeLessThan(firstRunWeight);
    const streams = await syncState();
    expect([streams.orders.lastRows, streams.trades.lastRows, streams.plan_orders.lastRows]).toEqual([0, 0, 0]);
    expect(streams.orders.totalRows).toBe(String(storedOrders.length));
  }, 60_000);

  it('updates an order cancelled and a plan order triggered since the last run', async () => {
    const data = sim();
    const order = data.orders.find((o) => String(o.orderId) === OPEN_IDS[1])!;
    order.status = 'CANCELED';
    order.updateTime = Date.now();
    // A plan order waiting since days ago triggers now: long after the stream's last window.
    const plan = data.planOrders.find((p) => p.algoStatus === 'UNTRIGGERED')!;
    Object.assign(plan, { algoStatus: 'TRIGGERED', actualOrderId: BigInt(TA), triggerTime: Date.now(), updateTime: Date.now() });

    const result = await sync();
    expect(result.streams.orders).toEqual({ ok: true, rows: 1 });
    expect(result.streams.plan_orders).toEqual({ ok: true, rows: 1 });
    const { rows } = await suite.db.query('SELECT status, data FROM exchange_orders WHERE order_id = $1::bigint', [OPEN_IDS[1]]);
    expect(rows[0].status).toBe('CANCELED');
    expect(JSON.parse(rows[0].data).status).toBe('CANCELED');
    const { rows: plans } = await suite.db.query('SELECT algo_status, actual_order_id::text AS actual FROM exchange_plan_orders WHERE algo_id = $1::bigint', [
      String(plan.algoId),
    ]);
    expect(plans).toEqual([{ algo_status: 'TRIGGERED', actual: TA }]);
  }, 60_000);

  it('looks an order in a status it does not recognise up again on every run until the status is final', async () => {
    const order = sim().orders.find((o) => String(o.orderId) === OPEN_IDS[2])!;
    const stored = async () => (await suite.db.query('SELECT status FROM exchange_orders WHERE order_id = $1::bigint', [OPEN_IDS[2]])).rows[0].status;
    // Neither open nor final, as far as the gateway knows: no longer in openOrders, and outside every history window read from now on.
    Object.assign(order, { status: 'PENDING_SETTLEMENT', updateTime: Date.now() });
    await sync();
    expect(await stored()).toBe('PENDING_SETTLEMENT');
    await sync();
    Object.assign(order, { status: 'FILLED', executedQty: order.origQty, updateTime: Date.now() });
    await sync();
    expect(await stored()).toBe('FILLED');
  }, 60_000);

  it('records an exchange fault as the stream’s last error, keeps the other streams going, and recovers', async () => {
    expect((await faults('PUT', { errorRate: 1, paths: ['/capi/v3/userTrades'] })).status).toBe(200);
    try {
      const result = await sync();
      expect(result.streams.trades).toMatchObject({ ok: false, error: expect.stringMatching(/^transient: /) });
      expect(result.streams.orders!.ok).toBe(true);
      expect(result.streams.plan_orders!.ok).toBe(true);
      const streams = await syncState();
      expect(streams.trades).toMatchObject({ ok: false, lastError: expect.stringMatching(/^transient: /), lastErrorAt: expect.any(String) });
      expect(streams.orders).toMatchObject({ ok: true, lastError: null });
    } finally {
      await faults('DELETE');
    }
    const result = await sync();
    expect(result.streams.trades).toEqual({ ok: true, rows: 0 });
    const trades = (await syncState()).trades;
    expect(trades.ok).toBe(true);
    // The error stays readable as history; the success is newer.
    expect(trades.lastError).toMatch(/^transient: /);
    expect(Date.parse(trades.lastSuccessAt)).toBeGreaterThan(Date.parse(trades.lastErrorAt));
  }, 60_000);

  it('leaves the account to another worker that holds its lock', async () => {
    await suite.db.query("SELECT pg_advisory_lock(hashtextextended('evidence-sync:default', 0))");
    try {
      expect(await sync()).toEqual({ accountId: 'default', skipped: 'locked', streams: {} });
    } finally {
      await suite.db.query("SELECT pg_advisory_unlock(hashtextextended('evidence-sync:default', 0))");
    }
    expect((await sync()).skipped).toBeUndefined();
  }, 60_000);

  // Last: a stopped service syncs no more.
  it('stops mid-run at shutdown without waiting for the exchange, and lets go of the lock', async () => {
    const advisoryLocks = async () => (await suite.db.query(ADVISORY_LOCKS)).rows[0].n;
    const lastError = async () => (await syncState()).trades.lastErrorAt;
    const errorBefore = await lastError();
    await faults('PUT', { hangRate: 1, paths: ['/capi/v3/userTrades'] });
    try {
      const service = suite.harness.gateway.worker!.get(EvidenceSyncService);
      const running = service.syncAccount('default');
      await waitFor('the run to hold the account lock', async () => ((await advisoryLocks()) === 1 ? true : undefined));
      await service.stop();
      const result = await running;
      expect(result.streams.trades).toMatchObject({ ok: false, error: expect.stringMatching(/^stopped: /) });
      expect(result.streams.orders).toBeUndefined();
      expect(await advisoryLocks()).toBe(0);
      // Not the exchange's fault: nothing is recorded as an error.
      expect(await lastError()).toBe(errorBefore);
      expect(await service.syncAccount('default')).toEqual({ accountId: 'default', skipped: 'stopping', streams: {} });
    } finally {
      await faults('DELETE');
    }
  }, 20_000);
});

describe('evidence sync in embedded mode (PGlite, as `npm start` runs it)', () => {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness({ EVIDENCE_SYNC_INTERVAL_MS: '0' });
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('syncs the generated account and answers coverage from the embedded database', async () => {
    const service = harness!.gateway.worker!.get(EvidenceSyncService);
    const first = await service.syncAccount('default');
    expect(Object.values(first.streams).map((s) => s.ok)).toEqual([true, true, true]);
    expect(first.streams.orders!.rows).toBeGreaterThan(50);
    expect(first.streams.trades!.rows).toBeGreaterThan(50);
    const second = await service.syncAccount('default');
    expect(Object.values(second.streams).map((s) => s.rows)).toEqual([0, 0, 0]);
    const res = await fetch(`${harness!.apiUrl}/v1/compliance/coverage`, { headers: { authorization: `Bearer ${harness!.agentKey}` } });
    expect(res.status).toBe(200);
    const view = await json(res);
    expect(view.orders.total).toBeGreaterThan(0);
    expect(view.orders.covered).toBe(0);
    expect(view.sync.syncedUntil).not.toBeNull();
  }, 60_000);
});
