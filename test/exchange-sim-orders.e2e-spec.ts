import { type RunningSimulator, SANDBOX_CREDENTIALS, startSimulator } from '../apps/exchange-sim/src/index.js';
import { SimDataClient } from './support/sim-data-client.js';
import { DAY, expectInvalid, expectNewestFirst, NO_BUDGETS, PATHS as P, type Row, rows, units } from './support/sim-data-expect.js';
import { expectShape, OPEN_ORDER_FIELDS, ORDER_FIELDS, PLAN_ORDER_FIELDS, TRADE_FIELDS } from './support/weex-spec-fields.js';

const now = 1_767_225_600_000;
const ACCOUNT = { uid: '8000000001', ...SANDBOX_CREDENTIALS };

let sim: RunningSimulator;
let api: SimDataClient;
let history: Row[];
let open: Row[];

beforeAll(async () => {
  sim = await startSimulator({ clock: () => now, budgets: NO_BUDGETS });
  api = new SimDataClient(sim.url, ACCOUNT, () => now);
  history = rows(await api.get(P.orderHistory));
  open = rows(await api.get(P.openOrders));
});

afterAll(async () => {
  await sim?.close();
});

describe('exchange simulator data: open orders', () => {
  it('answers the NEW and PARTIALLY_FILLED orders with every Order field and the open-order extras', async () => {
    expect(open.length).toBeGreaterThanOrEqual(4);
    open.forEach((order) => expectShape(order, OPEN_ORDER_FIELDS));
    expect(new Set(open.map((o) => o.status))).toEqual(new Set(['NEW', 'PARTIALLY_FILLED']));
    expectNewestFirst(open, 'time');
  });

  it('pages from 0 and filters by symbol, orderId (greater than) and time', async () => {
    const pages = await Promise.all([0, 1, 2, 99].map((page) => api.get(P.openOrders, { limit: 2, page })));
    expect(pages.map(rows)).toEqual([open.slice(0, 2), open.slice(2, 4), open.slice(4, 6), []]);
    const pivot = open[3].orderId as bigint;
    const newer = rows(await api.get(P.openOrders, { orderId: pivot }));
    expect(newer).toEqual(open.filter((o) => (o.orderId as bigint) > pivot));
    const symbol = String(open[0].symbol);
    expect(rows(await api.get(P.openOrders, { symbol }))).toEqual(open.filter((o) => o.symbol === symbol));
    const startTime = Number(open[2].time);
    expect(rows(await api.get(P.openOrders, { startTime }))).toEqual(open.slice(0, 3));
  });

  it.each([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 101', { limit: 101 }, 'limit'],
    ['page -1', { page: -1 }, 'page'],
    ['orderId not digits', { orderId: 'abc' }, 'orderId'],
    ['symbol in v2 notation', { symbol: 'cmt_btcusdt' }, 'symbol'],
  ])('refuses %s with -1140 naming the parameter', async (_name, query, parameter) => {
    expectInvalid(await api.get(P.openOrders, query), parameter);
  });
});

describe('exchange simulator data: order history and order info', () => {
  it('answers final orders over ~120 days, newest first, with the Order fields', async () => {
    expect(history.length).toBeGreaterThan(100);
    expect(history.length).toBeLessThanOrEqual(500);
    history.forEach((order) => expectShape(order, ORDER_FIELDS));
    expect(new Set(history.map((o) => o.status))).toEqual(new Set(['FILLED', 'CANCELED', 'EXPIRED']));
    expectNewestFirst(history, 'time');
    expect(Number(history.at(-1)!.time)).toBeLessThan(now - 100 * DAY);
  });

  it('pages from 0 and filters by symbol and time', async () => {
    expect(rows(await api.get(P.orderHistory, { limit: 10, page: 0 }))).toEqual(history.slice(0, 10));
    expect(rows(await api.get(P.orderHistory, { limit: 10, page: 1 }))).toEqual(history.slice(10, 20));
    const [startTime, endTime] = [now - 30 * DAY, now - 10 * DAY];
    const window = rows(await api.get(P.orderHistory, { symbol: 'SOLUSDT', startTime, endTime }));
    const expected = history.filter((o) => o.symbol === 'SOLUSDT' && Number(o.time) >= startTime && Number(o.time) <= endTime);
    expect(window).toEqual(expected);
    expect(window.length).toBeGreaterThan(0);
  });

  it.each([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 1001', { limit: 1001 }, 'limit'],
    ['page -1', { page: -1 }, 'page'],
    ['startTime after endTime', { startTime: now, endTime: now - 1 }, 'endTime'],
    ['a window over 90 days', { startTime: now - 90 * DAY - 1, endTime: now }, 'endTime'],
  ])('refuses %s with -1140 naming the parameter', async (_name, query, parameter) => {
    expectInvalid(await api.get(P.orderHistory, query), parameter);
  });

  it('answers one order by its 18-digit orderId, digit-exact in the raw text', async () => {
    const order = history[5];
    const answer = await api.get(P.orderInfo, { orderId: order.orderId as bigint });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(order);
    expect(String(order.orderId)).toMatch(/^7\d{17}$/);
    expect(answer.text).toContain(`"orderId":${String(order.orderId)},`);
    // What JSON.parse would have made of it: the reason IDs travel as bigint.
    expect(String((JSON.parse(answer.text) as Row).orderId)).not.toBe(String(order.orderId));
  });

  it('answers an unknown orderId with an order-does-not-exist error, and a missing one with -1140', async () => {
    const unknown = await api.get(P.orderInfo, { orderId: '737185556881998189' });
    // ccxt's exceptions table: -3200 CONTRACT_ORDER_NOT_EXIST, "Order does not exist."
    expect(unknown).toMatchObject({ status: 400, json: { code: -3200, msg: 'Order does not exist.' } });
    expectInvalid(await api.get(P.orderInfo), 'orderId');
    expectInvalid(await api.get(P.orderInfo, { orderId: '12x' }), 'orderId');
  });
});

describe('exchange simulator data: trades', () => {
  it('gives each filled order trades at its avgPrice whose qty sums to executedQty', async () => {
    const filled = history.filter((o) => o.status === 'FILLED').slice(0, 10);
    for (const order of filled) {
      const trades = rows(await api.get(P.userTrades, { orderId: order.orderId as bigint }));
      expect(trades.length).toBeGreaterThan(0);
      trades.forEach((t) => expectShape(t, TRADE_FIELDS));
      expect(trades.every((t) => t.orderId === order.orderId && t.price === order.avgPrice && t.side === order.side)).toBe(true);
      expect(trades.reduce((sum, t) => sum + units(t.qty), 0n)).toBe(units(order.executedQty));
      expect(trades.reduce((sum, t) => sum + units(t.quoteQty), 0n)).toBe(units(order.cumQuote));
    }
  });

  it('answers the last 7 days by default, every trade belonging to one of the orders', async () => {
    const answer = await api.get(P.userTrades);
    const trades = rows(answer);
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((t) => Number(t.time) >= now - 7 * DAY && Number(t.time) <= now)).toBe(true);
    expectNewestFirst(trades, 'time');
    const orderIds = new Set([...history, ...open].map((o) => o.orderId));
    expect(trades.every((t) => orderIds.has(t.orderId))).toBe(true);
    expect(answer.text).toMatch(/"id":7\d{17},"orderId":7\d{17},/);
    expect(rows(await api.get(P.userTrades, { limit: 1 }))).toEqual(trades.slice(0, 1));
  });

  it.each([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 101', { limit: 101 }, 'limit'],
    ['endTime before startTime', { startTime: now - DAY, endTime: now - DAY - 1 }, 'endTime'],
    ['a window over 7 days', { startTime: now - 7 * DAY - 1, endTime: now }, 'endTime'],
    ['a startTime over 365 days back', { startTime: now - 366 * DAY }, 'startTime'],
  ])('refuses %s with -1140 naming the parameter', async (_name, query, parameter) => {
    expectInvalid(await api.get(P.userTrades, query), parameter);
  });
});

describe('exchange simulator data: conditional orders', () => {
  it('answers { orders, hasMore } with every PlanOrder field; triggered ones point at real orders', async () => {
    const answer = await api.get(P.algoOrders);
    const { orders, hasMore } = answer.json as { orders: Row[]; hasMore: boolean };
    expect(hasMore).toBe(false);
    expect(orders.length).toBeGreaterThan(10);
    orders.forEach((p) => expectShape(p, PLAN_ORDER_FIELDS));
    expectNewestFirst(orders, 'createTime');
    // ccxt's capture: a plan order waiting for its trigger is UNTRIGGERED.
    expect(new Set(orders.map((p) => p.algoStatus))).toEqual(new Set(['UNTRIGGERED', 'TRIGGERED', 'CANCELED', 'EXPIRED']));
    const triggered = orders.find((p) => p.algoStatus === 'TRIGGERED')!;
    const placed = await api.get(P.orderInfo, { orderId: triggered.actualOrderId as bigint });
    expect((placed.json as Row).orderId).toBe(triggered.actualOrderId);
    const page = (await api.get(P.algoOrders, { limit: 1 })).json as { orders: Row[]; hasMore: boolean };
    expect(page).toEqual({ orders: orders.slice(0, 1), hasMore: true });
  });

  it.each([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 1001', { limit: 1001 }, 'limit'],
    ['a window over 90 days', { startTime: now - 91 * DAY, endTime: now }, 'endTime'],
    ['startTime not a number', { startTime: 'soon' }, 'startTime'],
  ])('refuses %s with -1140 naming the parameter', async (_name, query, parameter) => {
    expectInvalid(await api.get(P.algoOrders, query), parameter);
  });
});
