import { randomUUID } from 'node:crypto';
import { hashAgentKey } from '#libs/accounts';
import { EvidenceSyncService } from '#libs/evidence';
import type { SimOrder, SimTrade } from '../apps/exchange-sim/src/index.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { writeSeedFile } from './support/seed-file.js';
import { waitFor } from './support/wait-for.js';

// Test bodies are read loosely and checked by the assertions.
const json = (res: Response): Promise<any> => res.json();

const UID = '8000000001';
const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.now();

// Six filled orders with two fills each, one cancelled order without fills, and one filled order from 200 days ago
// (before the sync's lookback). Plan order P1 placed O6; P2 still waits. IDs are above 2^53.
const O = ['737185556881998301', '737185556881998302', '737185556881998303', '737185556881998304', '737185556881998305', '737185556881998306'];
const [O1, O2, O3, O4, O5, O6] = O;
const O7 = '737185556881998307';
const OLD = '737185556881998308';
const P1 = '737185556881998401';
const P2 = '737185556881998402';
const UNKNOWN = '737185556881999999';
const LATE = '737185556881998501';
const PARENT = '737185556881998601';
const TPSL = '737185556881998602';
const timeOf = (i: number) => NOW - 2 * DAY + i * HOUR;

const seedFile = writeSeedFile([
  {
    uid: UID,
    orders: [
      ...O.map((orderId, i) => ({ orderId, status: 'FILLED', symbol: 'BTCUSDT', side: 'BUY', positionSide: 'LONG', origQty: '0.2', time: timeOf(i) })),
      { orderId: O7, status: 'CANCELED', symbol: 'ETHUSDT', side: 'SELL', positionSide: 'SHORT', time: timeOf(6) },
      { orderId: OLD, status: 'FILLED', symbol: 'BTCUSDT', time: NOW - 200 * DAY },
    ],
    trades: O.flatMap((orderId, i) =>
      [1, 2].map((n) => ({
        id: `73718555688199${i}${n}00`,
        orderId,
        symbol: 'BTCUSDT',
        side: 'BUY',
        positionSide: 'LONG',
        qty: '0.1',
        time: timeOf(i) + n * 60_000,
      })),
    ),
    planOrders: [
      {
        algoId: P1,
        symbol: 'BTCUSDT',
        algoStatus: 'TRIGGERED',
        actualOrderId: O6,
        createTime: timeOf(5) - HOUR,
        triggerTime: timeOf(5),
        updateTime: timeOf(5),
      },
      { algoId: P2, symbol: 'BTCUSDT', algoStatus: 'NEW', createTime: NOW - DAY },
    ],
  },
]);

describe('compliance coverage and order evidence', () => {
  // Uploads retry at most a second apart, so that the logs held back by faults go through soon after they end.
  const suite = gatewaySuite({ EVIDENCE_SYNC_INTERVAL_MS: '0', UPLOAD_BACKOFF_MAX_MS: '1000' }, { simulator: { seedFile } });
  const auth = (key = suite.harness!.agentKey) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
  const get = (path: string, key?: string) => fetch(`${suite.harness!.apiUrl}${path}`, { headers: auth(key) });
  const sync = () => suite.harness!.gateway.worker!.get(EvidenceSyncService).syncAccount('default');
  const faults = (method: 'PUT' | 'DELETE', body?: unknown) =>
    fetch(`${suite.harness!.simulator.url}/__sim/faults`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const postLog = async (orderId: string) => {
    const body = `{"orderId":${orderId},"stage":"decision","model":"m1","input":{"p":1},"output":{"a":"BUY"},"explanation":"why"}`;
    const res = await fetch(`${suite.harness!.apiUrl}/v1/ai-logs`, { method: 'POST', headers: auth(), body });
    expect(res.status).toBe(202);
    return (await json(res)).id as string;
  };
  const logState = (id: string, done: (log: any) => boolean) =>
    waitFor(`log ${id}`, async () => {
      const log = await json(await get(`/v1/ai-logs/${id}`));
      return done(log) ? log : undefined;
    });
  const coverage = async (query: string) => {
    const res = await get(`/v1/compliance/coverage?${query}`);
    expect(res.status).toBe(200);
    return json(res);
  };
  const logs: Record<string, string> = {};
  let windowQuery = '';

  it('links uploaded, pending and unmatched logs to the synced orders and fills', async () => {
    logs.L1 = await postLog(O1);
    logs.L2 = await postLog(O2);
    logs.L3 = await postLog(P1); // names the plan order that placed O6
    logs.L5 = await postLog(UNKNOWN);
    for (const key of ['L1', 'L2', 'L3', 'L5']) await logState(logs[key], (l) => l.status === 'uploaded');
    // The exchange refuses uploads from now on: the log for O3 stays on its way.
    expect((await faults('PUT', { errorRate: 1, paths: ['/capi/v3/order/uploadAiLog'] })).status).toBe(200);
    logs.L4 = await postLog(O3);
    await logState(logs.L4, (l) => l.status === 'retrying');
    const to = Date.now();
    expect((await sync()).streams).toMatchObject({ trades: { ok: true }, orders: { ok: true }, plan_orders: { ok: true } });

    windowQuery = `from=${NOW - 3 * DAY}&to=${new Date(to).toISOString()}`;
    const view = await coverage(windowQuery);
    expect(view).toMatchObject({ from: new Date(NOW - 3 * DAY).toISOString(), to: new Date(to).toISOString() });
    expect(view.orders).toEqual({ total: 7, withFills: 6, covered: 3, uncovered: 4, pending: 1, failed: 0, missing: 3 });
    expect(view.fills).toEqual({ total: 12, covered: 6, uncovered: 6 });
    expect(view.uncoveredOrders).toEqual([
      {
        orderId: O3,
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: expect.any(String),
        status: 'FILLED',
        time: new Date(timeOf(2)).toISOString(),
        filled: true,
        reason: 'pending',
      },
      {
        orderId: O4,
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: expect.any(String),
        status: 'FILLED',
        time: new Date(timeOf(3)).toISOString(),
        filled: true,
        reason: 'missing',
      },
      {
        orderId: O5,
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: expect.any(String),
        status: 'FILLED',
        time: new Date(timeOf(4)).toISOString(),
        filled: true,
        reason: 'missing',
      },
      {
        orderId: O7,
        symbol: 'ETHUSDT',
        side: 'SELL',
        type: expect.any(String),
        status: 'CANCELED',
        time: new Date(timeOf(6)).toISOString(),
        filled: false,
        reason: 'missing',
      },
    ]);
    expect(view.uncoveredOrdersTruncated).toBe(false);
    expect(view.unmatchedLogs).toEqual([{ id: logs.L5, orderId: UNKNOWN, status: 'uploaded', receivedAt: expect.any(String) }]);
    expect(view).toMatchObject({ unmatchedLogsTotal: 1, unmatchedLogsTruncated: false });
    expect(view.sync.coversWindow).toBe(true);
    expect(view.sync.streams.map((s: { stream: string; ok: boolean }) => [s.stream, s.ok])).toEqual([
      ['trades', true],
      ['orders', true],
      ['plan_orders', true],
    ]);

    // A short list says that it is cut.
    const cut = await coverage(`${windowQuery}&limit=2`);
    expect(cut.uncoveredOrders.map((o: { orderId: string }) => o.orderId)).toEqual([O3, O4]);
    expect(cut.uncoveredOrdersTruncated).toBe(true);
    expect(cut.orders.uncovered).toBe(4);
  }, 60_000);

  it('shows an order with its fills, the plan order that placed it and the logs with their receipts', async () => {
    const res = await get(`/v1/orders/${O6}/evidence`);
    expect(res.status).toBe(200);
    const view = await json(res);
    expect(view).toMatchObject({ orderId: O6, coverage: 'covered', order: { orderId: O6, status: 'FILLED', symbol: 'BTCUSDT' } });
    expect(view.fills.map((f: { id: string; orderId: string }) => [f.id, f.orderId])).toEqual([
      ['73718555688199510' + '0', O6],
      ['73718555688199520' + '0', O6],
    ]);
    expect(view.planOrder).toMatchObject({ algoId: P1, actualOrderId: O6, algoStatus: 'TRIGGERED' });
    expect(view.logs).toEqual([
      expect.objectContaining({
        id: logs.L3,
        links: 'planOrder',
        orderId: P1,
        status: 'uploaded',
        receipt: expect.objectContaining({ target: 'simulator', httpStatus: 200, exchangeCode: '0' }),
        latestAttempts: [],
      }),
    ]);

    const direct = await json(await get(`/v1/orders/${O1}/evidence`));
    expect(direct).toMatchObject({ coverage: 'covered', planOrder: null, logs: [{ id: logs.L1, links: 'order', orderId: O1, status: 'uploaded' }] });
    const pending = await json(await get(`/v1/orders/${O3}/evidence`));
    expect(pending).toMatchObject({ coverage: 'pending', logs: [{ id: logs.L4, status: expect.stringMatching(/^(retrying|uploading)$/), receipt: null }] });
    expect(pending.logs[0].latestAttempts[0]).toMatchObject({ outcome: 'retryable', httpStatus: 500, exchangeCode: '-1000', target: 'simulator' });
    expect(await json(await get(`/v1/orders/${O4}/evidence`))).toMatchObject({ coverage: 'missing', logs: [] });
  }, 60_000);

  it('asks the exchange once for an order the sync has not seen, and answers 404 for one the exchange does not know', async () => {
    expect((await suite.db.query('SELECT 1 FROM exchange_orders WHERE order_id = $1::bigint', [OLD])).rowCount).toBe(0);
    const res = await get(`/v1/orders/${OLD}/evidence`);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ orderId: OLD, coverage: 'missing', order: { orderId: OLD, status: 'FILLED' } });
    expect((await suite.db.query("SELECT status FROM exchange_orders WHERE account_id = 'default' AND order_id = $1::bigint", [OLD])).rows).toEqual([
      { status: 'FILLED' },
    ]);
    // Once: with the order gone from the exchange, it is still served, from the copy the first request stored.
    const orders = suite.harness.simulator.state.account(UID)!.data.orders;
    orders.splice(
      orders.findIndex((o) => String(o.orderId) === OLD),
      1,
    );
    const again = await get(`/v1/orders/${OLD}/evidence`);
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ orderId: OLD, order: { orderId: OLD, status: 'FILLED' } });

    const missing = await get(`/v1/orders/${UNKNOWN}/evidence`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ statusCode: 404, code: 'ORDER_NOT_FOUND', message: expect.stringContaining(UNKNOWN) });

    const bad = await get('/v1/orders/12ab/evidence');
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors).toEqual([{ path: 'orderId', message: expect.stringContaining('decimal digits') }]);
  }, 60_000);

  it('links a log posted before its order existed as soon as the order is synced', async () => {
    const logId = await postLog(LATE);
    const before = await coverage('');
    expect(before.unmatchedLogs.map((l: { orderId: string }) => l.orderId)).toEqual([UNKNOWN, LATE]);
    expect((await get(`/v1/orders/${LATE}/evidence`)).status).toBe(404);

    const now = Date.now();
    const data = suite.harness.simulator.state.account(UID)!.data;
    data.orders.push(simOrder(LATE, now));
    data.trades.push(simTrade('737185556881998599', LATE, now + 1));
    await sync();

    const after = await coverage('');
    expect(after.unmatchedLogs.map((l: { orderId: string }) => l.orderId)).toEqual([UNKNOWN]);
    expect(after.orders.total).toBe(before.orders.total + 1);
    expect(after.fills.total).toBe(before.fills.total + 1);
    // The log itself waits for uploads to work again; until then the order counts as pending, not missing.
    const evidence = await json(await get(`/v1/orders/${LATE}/evidence`));
    expect(evidence).toMatchObject({
      orderId: LATE,
      coverage: 'pending',
      fills: [{ id: '737185556881998599', orderId: LATE }],
      logs: [{ id: logId, links: 'order' }],
    });
    expect(after.uncoveredOrders.find((o: { orderId: string }) => o.orderId === LATE)).toMatchObject({ reason: 'pending' });

    // Uploads work again: both waiting logs go through, and their orders are covered.
    await faults('DELETE');
    await logState(logId, (l) => l.status === 'uploaded');
    await logState(logs.L4, (l) => l.status === 'uploaded');
    const covered = await coverage(windowQuery);
    expect(covered.orders).toMatchObject({ covered: 4, uncovered: 3, pending: 0 });
    expect((await json(await get(`/v1/orders/${LATE}/evidence`))).coverage).toBe('covered');
  }, 60_000);

  it('covers a TP/SL that order/history lists under its algoId by the log naming the order it protected', async () => {
    // ccxt's capture: an attached TP/SL waits naming the order it protects as actualOrderId, and once cancelled,
    // order/history lists it as an order of its own type under its algoId. ccxt gives the agent only the parent's ID.
    const now = Date.now();
    const data = suite.harness.simulator.state.account(UID)!.data;
    data.orders.push(simOrder(PARENT, now));
    const template = data.planOrders.find((p) => String(p.algoId) === P1)!;
    data.planOrders.push({
      ...template,
      algoId: BigInt(TPSL),
      orderType: 'TAKE_PROFIT_MARKET',
      algoStatus: 'CANCELED',
      actualOrderId: BigInt(PARENT),
      createTime: now + 1,
      updateTime: now + 2,
      triggerTime: 0,
    });
    const logId = await postLog(PARENT);
    await logState(logId, (l) => l.status === 'uploaded');
    await sync();

    const evidence = await json(await get(`/v1/orders/${TPSL}/evidence`));
    expect(evidence).toMatchObject({
      coverage: 'covered',
      order: { orderId: TPSL, type: 'TAKE_PROFIT_MARKET', status: 'CANCELED' },
      planOrder: { algoId: TPSL, actualOrderId: PARENT },
      planOrderLink: 'self',
      logs: [{ id: logId, links: 'attachedOrder', orderId: PARENT, status: 'uploaded' }],
    });
    const view = await coverage(`from=${now}&to=${Date.now()}`);
    expect(view.orders).toMatchObject({ total: 2, covered: 2, uncovered: 0 });
    expect((await json(await get(`/v1/orders/${PARENT}/evidence`))).planOrderLink).toBe('attached');
  }, 60_000);

  it('refuses a bad window with a 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['from=yesterday', 'from'],
      ['to=2026-13-45T00:00:00Z', 'to'],
      [`from=${NOW}&to=${NOW - 1}`, 'from'],
      [`from=${NOW - 91 * DAY}&to=${NOW}`, 'from'],
      ['limit=0', 'limit'],
      ['since=1', 'since'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`/v1/compliance/coverage?${query}`);
      expect(res.status).toBe(400);
      const body = await json(res);
      expect(body).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(body.errors.map((e: { path: string }) => e.path)).toEqual([field]);
    }
  }, 60_000);

  it('shows an agent only its own account', async () => {
    const key = 'agent-key-of-another-account-0001';
    await suite.db.query("INSERT INTO accounts (id, name) VALUES ('other', 'Other')");
    await suite.db.query("INSERT INTO agent_keys (id, account_id, key_hash, label, scopes) VALUES ($1, 'other', $2, 'test', ARRAY['exchange:read'])", [
      randomUUID(),
      hashAgentKey(key),
    ]);
    await suite.db.query(
      `INSERT INTO exchange_orders (account_id, order_id, symbol, side, type, status, created_at, updated_at, data)
       VALUES ('other', $1::bigint, 'BTCUSDT', 'BUY', 'LIMIT', 'FILLED', now(), now(), '{}')`,
      [O1],
    );
    const theirs = await json(await get('/v1/compliance/coverage', key));
    expect(theirs.orders).toMatchObject({ total: 1, covered: 0, missing: 1 });
    expect(theirs.unmatchedLogs).toEqual([]);
    expect(theirs.sync.streams.every((s: { lastRunAt: string | null }) => s.lastRunAt === null)).toBe(true);
    // Its own row of O1, without the default account's fills or logs of the same order ID.
    expect(await json(await get(`/v1/orders/${O1}/evidence`, key))).toMatchObject({ orderId: O1, coverage: 'missing', fills: [], logs: [], planOrder: null });
    // The default account's order is not its order, and it has no exchange client to ask.
    expect((await get(`/v1/orders/${O2}/evidence`, key)).status).toBe(404);
    // The default account's view is unchanged by the other account's row.
    expect((await coverage(windowQuery)).orders.total).toBe(7);
  }, 60_000);
});

describe('evidence endpoints without exchange:read', () => {
  const KEY = 'agent-key-for-evidence-write-only';
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, AGENT_API_KEY_SCOPES: 'logs:write' }, { worker: false });

  it('answers 403 naming the scope', async () => {
    for (const path of ['/v1/compliance/coverage', '/v1/evidence/sync', `/v1/orders/${O1}/evidence`]) {
      const res = await fetch(`${suite.harness.apiUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('exchange:read') });
    }
  });
});

function simOrder(orderId: string, time: number): SimOrder {
  return {
    avgPrice: '97000',
    clientOrderId: 'late-order',
    cumQuote: '9700',
    executedQty: '0.1',
    orderId: BigInt(orderId),
    origQty: '0.1',
    price: '97000',
    reduceOnly: false,
    side: 'BUY',
    positionSide: 'LONG',
    status: 'FILLED',
    stopPrice: '0',
    symbol: 'BTCUSDT',
    time,
    timeInForce: 'GTC',
    type: 'LIMIT',
    updateTime: time + 1,
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    priceMatch: 'NONE',
    selfTradePreventionMode: 'NONE',
    goodTillDate: 0,
  };
}

function simTrade(id: string, orderId: string, time: number): SimTrade {
  return {
    id: BigInt(id),
    orderId: BigInt(orderId),
    symbol: 'BTCUSDT',
    buyer: true,
    commission: '1.94',
    commissionAsset: 'USDT',
    maker: true,
    price: '97000',
    qty: '0.1',
    quoteQty: '9700',
    realizedPnl: '0',
    side: 'BUY',
    positionSide: 'LONG',
    time,
  };
}
