import { ccxtWeex } from './support/ccxt-weex.js';
import { apiCaller, expectAllHeld, expectFieldErrors, expectSameRecord, simData, simWeight } from './support/exchange-api.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { DAY } from './support/sim-data-expect.js';
import {
  INCOME_FIELDS,
  OPEN_ORDER_FIELDS,
  ORDER_FIELDS,
  PLAN_ORDER_FIELDS,
  POSITION_FIELDS,
  SPOT_BILL_FIELDS,
  SYMBOL_CONFIG_FIELDS,
  TRADE_FIELDS,
} from './support/weex-spec-fields.js';

const KEY = 'agent-key-for-exchange-queries';
const OPEN = ['NEW', 'PARTIALLY_FILLED'];

describe('account and order queries over the client library', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY }, { worker: false });
  const api = () => apiCaller(suite, KEY);

  it('GET /v1/positions: every position with every field of the spec, IDs digit-exact', async () => {
    const res = await api().get('/v1/positions');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(simData(suite).positions.length);
    expectAllHeld(res.body.data, simData(suite).positions, 'id', POSITION_FIELDS);
  });

  it('GET /v1/income: the exchange page, default limit 20, every field; filters pass through', async () => {
    const page = await api().get('/v1/income');
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ hasNextPage: true, nextKey: page.body.items[19].billId, items: expect.any(Array) });
    expect(page.body.items.length).toBeLessThanOrEqual(20);
    const now = Date.now();
    const all = await api().get(`/v1/income?limit=100&startTime=${now - 100 * DAY}&endTime=${now}`);
    expect(all.body.items.length).toBeGreaterThan(page.body.items.length);
    expectAllHeld(all.body.items, simData(suite).income, 'billId', INCOME_FIELDS);
    const funding = await api().get('/v1/income?incomeType=position_funding&limit=100&symbol=cmt_btcusdt');
    expect(funding.status).toBe(200);
    for (const item of funding.body.items) expect(item).toMatchObject({ incomeType: 'position_funding', symbol: 'BTCUSDT' });
  });

  it('GET /v1/income pages on with nextKey: the same query, page after page, meets every bill of the window once', async () => {
    const [startTime, endTime] = [Date.now() - 100 * DAY, Date.now()];
    const seen: string[] = [];
    let nextKey: string | null | undefined;
    do {
      const page = await api().get(`/v1/income?limit=100&startTime=${startTime}&endTime=${endTime}${nextKey ? `&nextKey=${nextKey}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((item: { billId: string }) => item.billId));
      nextKey = page.body.hasNextPage ? page.body.nextKey : undefined;
    } while (nextKey);
    const held = simData(suite).income.filter((item) => Number(item.time) >= startTime && Number(item.time) <= endTime);
    expect(held.length).toBeGreaterThan(100);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(held.map((item) => String(item.billId)).sort());
  });

  it('GET /v1/orders/open: exactly the open orders the exchange holds', async () => {
    const res = await api().get('/v1/orders/open');
    expect(res.status).toBe(200);
    const held = simData(suite).orders.filter((o) => OPEN.includes(o.status));
    expect(res.body.data.map((o: { orderId: string }) => o.orderId).sort()).toEqual(held.map((o) => String(o.orderId)).sort());
    expectAllHeld(res.body.data, held, 'orderId', OPEN_ORDER_FIELDS);
    const paged = await api().get('/v1/orders/open?limit=2&page=1');
    expect(paged.body.data.map((o: { orderId: string }) => o.orderId)).toEqual(res.body.data.slice(2, 4).map((o: { orderId: string }) => o.orderId));
  });

  it('GET /v1/orders/history: final orders with every field; the v2 symbol notation is accepted', async () => {
    const res = await api().get('/v1/orders/history?limit=1000');
    expect(res.status).toBe(200);
    // order/history also lists the plan orders that ended untriggered, under their algoId (as ccxt captured it).
    const ended = simData(suite)
      .planOrders.filter((p) => ['CANCELED', 'EXPIRED'].includes(p.algoStatus))
      .map((p) => String(p.algoId));
    const held = simData(suite).orders.filter((o) => !OPEN.includes(o.status));
    expect(res.body.data).toHaveLength(held.length + ended.length);
    res.body.data = res.body.data.filter((o: { orderId: string }) => !ended.includes(o.orderId));
    expectAllHeld(res.body.data, held, 'orderId', ORDER_FIELDS);
    const btc = await api().get('/v1/orders/history?symbol=cmt_btcusdt&limit=1000');
    expect(btc.body.data.length).toBeGreaterThan(0);
    expect(btc.body.data.every((o: { symbol: string }) => o.symbol === 'BTCUSDT')).toBe(true);
  });

  it('GET /v1/orders/:orderId: one order, its 18-digit ID exactly as the exchange holds it', async () => {
    const held = simData(suite).orders[0];
    const id = String(held.orderId);
    expect(id).toMatch(/^\d{18}$/);
    const res = await api().get(`/v1/orders/${id}`);
    expect(res.status).toBe(200);
    expectSameRecord(res.body, held, ORDER_FIELDS);
    // On the wire the ID is a string with every digit, never a rounded number.
    expect(res.text).toContain(`"orderId":"${id}"`);
  });

  it('routes orders/open and orders/history before orders/:orderId, and leaves orders/:orderId/evidence alone', async () => {
    for (const path of ['/v1/orders/open', '/v1/orders/history']) {
      const res = await api().get(path);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body.data)).toBe(true);
    }
    const id = String(simData(suite).orders[0].orderId);
    const evidence = await api().get(`/v1/orders/${id}/evidence`);
    // The evidence endpoint answers there, not the order query: its body wraps the order.
    expect(evidence.status).toBe(200);
    expect(evidence.body).toMatchObject({ orderId: id, coverage: 'missing', order: { orderId: id }, logs: [] });
    expect(evidence.body).not.toHaveProperty('clientOrderId');
  });

  it('GET /v1/algo-orders: the exchange page with every field of each plan order', async () => {
    const res = await api().get('/v1/algo-orders?limit=1000');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ orders: expect.any(Array), hasMore: false });
    expect(res.body.orders).toHaveLength(simData(suite).planOrders.length);
    expectAllHeld(res.body.orders, simData(suite).planOrders, 'algoId', PLAN_ORDER_FIELDS);
    const one = await api().get('/v1/algo-orders?limit=1');
    expect(one.body).toMatchObject({ orders: [expect.any(Object)], hasMore: true });
  });

  it('GET /v1/trades: fills with every field; filtered by an order, exactly that order’s fills', async () => {
    const res = await api().get('/v1/trades?limit=100');
    expect(res.status).toBe(200);
    expectAllHeld(res.body.data, simData(suite).trades, 'id', TRADE_FIELDS);
    const orderId = String(simData(suite).trades[0].orderId);
    const ofOrder = await api().get(`/v1/trades?orderId=${orderId}`);
    const held = simData(suite).trades.filter((t) => String(t.orderId) === orderId);
    expect(ofOrder.body.data.map((t: { id: string }) => t.id).sort()).toEqual(held.map((t) => String(t.id)).sort());
  });

  it('GET /v1/symbol-config: every symbol, or one in either notation', async () => {
    const all = await api().get('/v1/symbol-config');
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(simData(suite).symbolConfigs.length);
    expectAllHeld(all.body.data, simData(suite).symbolConfigs, 'symbol', SYMBOL_CONFIG_FIELDS);
    for (const symbol of ['ETHUSDT', 'cmt_ethusdt']) {
      const one = await api().get(`/v1/symbol-config?symbol=${symbol}`);
      expect(one.body.data.map((c: { symbol: string }) => c.symbol)).toEqual(['ETHUSDT']);
    }
  });

  it('GET /v1/spot/bills: spot bills from the spot host, billId a string, default limit 10', async () => {
    const res = await api().get('/v1/spot/bills?limit=100');
    expect(res.status).toBe(200);
    expectAllHeld(res.body.data, simData(suite).spotBills, 'billId', SPOT_BILL_FIELDS);
    expect((await api().get('/v1/spot/bills')).body.data.length).toBeLessThanOrEqual(10);
  });
});

describe('query validation: 400 naming every failing field, before any weight is spent', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY }, { worker: false });
  const api = () => apiCaller(suite, KEY);
  const now = Date.now();
  const cases: Array<[string, string[]]> = [
    ['/v1/positions?symbol=BTCUSDT', ['symbol']],
    ['/v1/income?limit=0', ['limit']],
    ['/v1/income?limit=101', ['limit']],
    ['/v1/income?limit=ten', ['limit']],
    ['/v1/income?limit=1&limit=2', ['limit']],
    ['/v1/income?startTime=-1', ['startTime']],
    [`/v1/income?startTime=${now - 101 * DAY}&endTime=${now}`, ['endTime']],
    [`/v1/income?startTime=${now}&endTime=${now - 1}`, ['endTime']],
    [`/v1/income?startTime=${now - 101 * DAY}`, ['startTime']],
    [`/v1/income?startTime=${now + DAY}`, ['startTime']],
    ['/v1/income?incomeType=bonus', ['incomeType']],
    ['/v1/income?asset=', ['asset']],
    ['/v1/income?symbol=BTC-USDT', ['symbol']],
    ['/v1/income?since=1', ['since']],
    ['/v1/income?nextKey=next', ['nextKey']],
    ['/v1/orders/open?limit=0', ['limit']],
    ['/v1/orders/open?limit=101', ['limit']],
    ['/v1/orders/open?page=-1', ['page']],
    // The spec's Integer is Java's: the exchange refuses a page past 2^31 - 1, after charging weight.
    ['/v1/orders/open?page=2147483648', ['page']],
    ['/v1/orders/history?page=2147483648', ['page']],
    ['/v1/spot/bills?coinId=2147483648', ['coinId']],
    ['/v1/orders/open?orderId=12ab', ['orderId']],
    ['/v1/orders/open?orderId=9223372036854775808', ['orderId']],
    [`/v1/orders/open?startTime=${now}&endTime=${now - 1}`, ['endTime']],
    ['/v1/orders/history?limit=0', ['limit']],
    ['/v1/orders/history?limit=1001', ['limit']],
    ['/v1/orders/history?page=1.5', ['page']],
    [`/v1/orders/history?startTime=${now}&endTime=${now - 1}`, ['endTime']],
    [`/v1/orders/history?startTime=${now - 91 * DAY}&endTime=${now}`, ['endTime']],
    ['/v1/orders/history?limit=0&page=-1&startTime=yesterday&symbol=B', ['limit', 'page', 'startTime', 'symbol']],
    ['/v1/orders/abc', ['orderId']],
    ['/v1/orders/0', ['orderId']],
    ['/v1/orders/9223372036854775808', ['orderId']],
    ['/v1/orders/737185556881998184?symbol=BTCUSDT', ['symbol']],
    ['/v1/algo-orders?limit=0', ['limit']],
    ['/v1/algo-orders?limit=1001', ['limit']],
    [`/v1/algo-orders?startTime=${now - 91 * DAY}&endTime=${now}`, ['endTime']],
    [`/v1/algo-orders?startTime=${now}&endTime=${now - 1}`, ['endTime']],
    ['/v1/trades?limit=0', ['limit']],
    ['/v1/trades?limit=101', ['limit']],
    [`/v1/trades?startTime=${now}&endTime=${now - 1}`, ['endTime']],
    // WEEX serves fills in windows of at most 7 days; the simulator refuses longer ones, so the gateway does first.
    [`/v1/trades?startTime=${now - 7 * DAY - 1}&endTime=${now}`, ['endTime']],
    // ... and at most 365 days back: the window's start, startTime or (endTime alone) 7 days before endTime.
    [`/v1/trades?startTime=${now - 366 * DAY}&endTime=${now - 360 * DAY}`, ['startTime']],
    [`/v1/trades?startTime=${now - 366 * DAY}`, ['startTime']],
    [`/v1/trades?endTime=${now - 359 * DAY}`, ['endTime']],
    ['/v1/trades?orderId=-5', ['orderId']],
    ['/v1/symbol-config?symbol=X', ['symbol']],
    ['/v1/symbol-config?symbol=BTC%2FUSDT', ['symbol']],
    ['/v1/spot/bills?limit=0', ['limit']],
    ['/v1/spot/bills?limit=101', ['limit']],
    ['/v1/spot/bills?coinId=-1', ['coinId']],
    ['/v1/spot/bills?after=soon&before=later', ['after', 'before']],
  ];

  it.each(cases)('%s → 400 naming %j', async (path, fields) => {
    const before = simWeight(suite);
    const res = await api().get(path);
    expectFieldErrors(res, fields);
    expect(simWeight(suite)).toEqual(before);
  });

  it('GET /v1/trades over 7 days: 400 naming endTime and the rule, where the simulator (like WEEX) would refuse it after charging weight', async () => {
    const [startTime, endTime] = [now - 7 * DAY - 1, now];
    const before = { weight: simWeight(suite), rejections: suite.harness.simulator.state.stats().rejections };
    const res = await api().get(`/v1/trades?startTime=${startTime}&endTime=${endTime}`);
    expect([res.status, res.body.errors]).toEqual([400, [{ path: 'endTime', message: 'endTime must be within 7 days of startTime' }]]);
    // Nothing reached the simulator: it charges IP weight at its edge, before anything else, and counts every refusal.
    expect({ weight: simWeight(suite), rejections: suite.harness.simulator.state.stats().rejections }).toEqual(before);
    // The same window sent to the simulator by ccxt, signed with the account's credentials: refused, weight spent.
    const direct = ccxtWeex(suite.harness.simulator) as unknown as Record<string, (params: object) => Promise<unknown>>;
    await expect(direct.contractPrivateGetCapiV3UserTrades({ startTime, endTime })).rejects.toThrow(/-1140/);
    expect(simWeight(suite)).not.toEqual(before.weight);
  });

  it('accepts the largest 64-bit ID and both ends of each limit (the exchange then answers)', async () => {
    for (const path of [
      '/v1/income?limit=1',
      '/v1/income?limit=100',
      '/v1/orders/open?limit=100&page=0',
      '/v1/orders/open?page=2147483647',
      '/v1/orders/history?page=2147483647',
      '/v1/spot/bills?coinId=2147483647',
      '/v1/orders/history?limit=1000',
      '/v1/algo-orders?limit=1000',
      '/v1/trades?limit=1',
      '/v1/spot/bills?limit=100',
      `/v1/orders/history?startTime=${now - 90 * DAY}&endTime=${now}`,
      `/v1/trades?startTime=${now - 7 * DAY}&endTime=${now}`,
      `/v1/trades?startTime=${now - 364 * DAY}&endTime=${now - 357 * DAY}`,
      `/v1/trades?startTime=${now - 364 * DAY}`,
      `/v1/trades?endTime=${now - 357 * DAY}`,
    ]) {
      expect([path, (await api().get(path)).status]).toEqual([path, 200]);
    }
    const max = await api().get('/v1/orders/9223372036854775807');
    // An order the exchange does not know is a 404 (WEEX -3200, ccxt's exceptions table), not a bad request.
    expect(max.body).toMatchObject({ statusCode: 404, code: 'ORDER_NOT_FOUND', exchange: { operation: 'orderInfo', code: '-3200' } });
  });
});
