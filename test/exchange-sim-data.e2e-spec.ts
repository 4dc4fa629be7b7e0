import { type RunningSimulator, SANDBOX_CREDENTIALS, startSimulator } from '../apps/exchange-sim/src/index.js';
import { SimDataClient } from './support/sim-data-client.js';
import { DAY, expectInvalid, expectNewestFirst, NO_BUDGETS, PATHS, type Row, rows } from './support/sim-data-expect.js';
import { expectShape, INCOME_WIRE_FIELDS, POSITION_FIELDS, SPOT_BILL_FIELDS, SYMBOL_CONFIG_FIELDS } from './support/weex-spec-fields.js';

const now = 1_767_225_600_000;
const ACCOUNT = { uid: '8000000001', ...SANDBOX_CREDENTIALS };
const P = PATHS;

let sim: RunningSimulator;
let api: SimDataClient;
let spot: SimDataClient;

beforeAll(async () => {
  sim = await startSimulator({ clock: () => now, budgets: NO_BUDGETS });
  api = new SimDataClient(sim.url, ACCOUNT, () => now);
  spot = new SimDataClient(sim.spotUrl, ACCOUNT, () => now);
});

afterAll(async () => {
  await sim?.close();
});

describe('exchange simulator data: positions and symbol configuration', () => {
  it('serves every Position field, both sides and both margin modes, 18-digit IDs as bare numbers', async () => {
    const answer = await api.get(P.allPositions);
    expect(answer.status).toBe(200);
    const positions = rows(answer);
    expect(positions.length).toBeGreaterThanOrEqual(3);
    positions.forEach((p) => expectShape(p, POSITION_FIELDS));
    expect(new Set(positions.map((p) => p.side))).toEqual(new Set(['LONG', 'SHORT']));
    expect(new Set(positions.map((p) => p.marginType))).toEqual(new Set(['CROSSED', 'ISOLATED']));
    for (const p of positions) {
      expect(String(p.id)).toMatch(/^7\d{17}$/);
      expect(answer.text).toContain(`"id":${String(p.id)},`);
    }
  });

  it('generates the same data on every start (seeded), and different data per account', async () => {
    const again = await startSimulator({ clock: () => now });
    try {
      const twin = new SimDataClient(again.url, ACCOUNT, () => now);
      expect((await twin.get(P.allPositions)).text).toBe((await api.get(P.allPositions)).text);
      expect((await twin.get(P.orderHistory)).text).toBe((await api.get(P.orderHistory)).text);
    } finally {
      await again.close();
    }
    const [first, second] = sim.state.accounts;
    expect(second.data.positions[0].id).not.toBe(first.data.positions[0].id);
  });

  it('serves a configuration per symbol that agrees with the positions, filtered by symbol', async () => {
    const all = rows(await api.get(P.symbolConfig));
    expect(all.map((c) => c.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    all.forEach((c) => expectShape(c, SYMBOL_CONFIG_FIELDS));
    const eth = rows(await api.get(P.allPositions)).find((p) => p.symbol === 'ETHUSDT')!;
    const [config] = rows(await api.get(P.symbolConfig, { symbol: 'ETHUSDT' }));
    expect(config).toMatchObject({ symbol: 'ETHUSDT', marginType: eth.marginType, isolatedShortLeverage: eth.leverage });
    expectInvalid(await api.get(P.symbolConfig, { symbol: 'cmt_ethusdt' }), 'symbol');
  });
});

describe('exchange simulator data: income', () => {
  it('answers 20 items of the last 30 days by default, newest first, billId and time as strings (ccxt), with nextKey', async () => {
    const answer = await api.post(P.income);
    const { hasNextPage, nextKey, items } = answer.json as { hasNextPage: boolean; nextKey: string; items: Row[] };
    expect(answer.status).toBe(200);
    expect(hasNextPage).toBe(true);
    expect(items).toHaveLength(20);
    items.forEach((item) => expectShape(item, INCOME_WIRE_FIELDS));
    expect(items.map((i) => Number(i.time))).toEqual(items.map((i) => Number(i.time)).sort((a, b) => b - a));
    expect(items.every((i) => Number(i.time) >= now - 30 * DAY && Number(i.time) <= now)).toBe(true);
    expect(answer.text).toMatch(/"billId":"7\d{17}",/);
    expect(answer.text).toMatch(/"time":"\d{13}",/);
    expect(nextKey).toBe(items[19].billId);
  });

  it('pages with nextKey until hasNextPage is false, each item once', async () => {
    const range = { startTime: now - 100 * DAY, endTime: now, limit: 100 };
    const seen: unknown[] = [];
    let page = (await api.post(P.income, range)).json as { hasNextPage: boolean; nextKey: string | null; items: Row[] };
    seen.push(...page.items.map((i) => i.billId));
    while (page.hasNextPage) {
      page = (await api.post(P.income, { ...range, nextKey: page.nextKey })).json as typeof page;
      seen.push(...page.items.map((i) => i.billId));
    }
    expect(page.nextKey).toBeNull();
    const all = sim.state.accounts[0].data.income.filter((i) => Number(i.time) >= now - 100 * DAY);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(all.length);
    expectInvalid(await api.post(P.income, { ...range, nextKey: '1' }), 'nextKey');
  });

  it('filters by incomeType, symbol and asset, and carries several income types', async () => {
    const wide = { startTime: now - 100 * DAY, endTime: now, limit: 100 };
    const funding = (await api.post(P.income, { ...wide, incomeType: 'position_funding' })).json as { items: Row[] };
    expect(funding.items.length).toBeGreaterThan(0);
    expect(funding.items.every((i) => i.incomeType === 'position_funding')).toBe(true);
    const btc = (await api.post(P.income, { ...wide, symbol: 'BTCUSDT', asset: 'USDT' })).json as { items: Row[] };
    expect(btc.items.length).toBeGreaterThan(0);
    expect(btc.items.every((i) => i.symbol === 'BTCUSDT' && i.asset === 'USDT')).toBe(true);
    const types = new Set(sim.state.accounts[0].data.income.map((i) => i.incomeType));
    expect(types.size).toBeGreaterThanOrEqual(6);
  });

  it('applies the time rules as ccxt documents them: startTime and endTime only as a pair, at most 100 days apart', async () => {
    for (const lone of [{ endTime: now - 40 * DAY }, { startTime: now - 2 * DAY }]) {
      expect(await api.post(P.income, lone)).toMatchObject({ status: 400, json: { code: -1128, msg: expect.stringContaining('startTime and endTime') } });
    }
    const start = now - 2 * DAY;
    const both = ((await api.post(P.income, { startTime: start, endTime: now, limit: 100 })).json as { items: Row[] }).items;
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((i) => Number(i.time) >= start && Number(i.time) <= now)).toBe(true);
    expect((await api.post(P.income, { startTime: now - 100 * DAY, endTime: now })).status).toBe(200);
    expectInvalid(await api.post(P.income, { startTime: now - 100 * DAY - 1, endTime: now }), 'endTime');
    expectInvalid(await api.post(P.income, { startTime: now, endTime: now - 1 }), 'endTime');
  });

  it.each([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 101', { limit: 101 }, 'limit'],
    ['limit 2.5', { limit: 2.5 }, 'limit'],
    ['an unknown incomeType', { incomeType: 'airdrop' }, 'incomeType'],
    ['startTime not a number', { startTime: 'yesterday' }, 'startTime'],
  ])('refuses %s with -1140 naming the parameter', async (_name, body, parameter) => {
    expectInvalid(await api.post(P.income, body), parameter);
  });

  it('accepts limit 100 and answers at most 100', async () => {
    const { items } = (await api.post(P.income, { limit: 100, startTime: now - 60 * DAY, endTime: now })).json as { items: Row[] };
    expect(items).toHaveLength(100);
  });
});

describe('exchange simulator data: spot bills, on the spot port only', () => {
  it('answers 10 bills by default, newest first, billId and cTime as strings, coinId an integer', async () => {
    const answer = await spot.post(P.spotBills);
    expect(answer.status).toBe(200);
    const bills = rows(answer);
    expect(bills).toHaveLength(10);
    bills.forEach((bill) => expectShape(bill, SPOT_BILL_FIELDS));
    expectNewestFirst(bills, 'cTime');
    expect(answer.text).toMatch(/"billId":"\d{18}"/);
    expect(answer.text).toMatch(/"cTime":"\d{13}"/);
    expect(answer.text).toMatch(/"coinId":\d+,/);
  });

  it('filters by coinId, bizType, after and before (ms), up to limit 100', async () => {
    const all = rows(await spot.post(P.spotBills, { limit: 100 }));
    expect(all.length).toBeGreaterThan(10);
    expect(new Set(all.map((b) => b.bizType))).toEqual(new Set(['deposit', 'withdraw', 'transfer_in', 'transfer_out', 'trade_in', 'trade_out']));
    const usdt = rows(await spot.post(P.spotBills, { coinId: 2, bizType: 'trade_out', limit: 100 }));
    expect(usdt.length).toBeGreaterThan(0);
    expect(usdt.every((b) => b.coinId === 2 && b.coinName === 'USDT' && b.bizType === 'trade_out')).toBe(true);
    const [after, before] = [now - 60 * DAY, now - 30 * DAY];
    const window = rows(await spot.post(P.spotBills, { after, before, limit: 100 }));
    expect(window.length).toBeGreaterThan(0);
    expect(window.every((b) => Number(b.cTime) > after && Number(b.cTime) < before)).toBe(true);
  });

  it.each([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 101', { limit: 101 }, 'limit'],
    ['coinId not an integer', { coinId: 'USDT' }, 'coinId'],
    ['after not a time', { after: -5 }, 'after'],
  ])('refuses %s with -1140 naming the parameter', async (_name, body, parameter) => {
    expectInvalid(await spot.post(P.spotBills, body), parameter);
  });

  it('serves spot paths only on the spot port and contract paths only on the contract port (404 in the envelope)', async () => {
    expect(await api.post(P.spotBills)).toMatchObject({ status: 404, json: { code: -1000, msg: 'Not Found' } });
    expect(await spot.get(P.allPositions)).toMatchObject({ status: 404, json: { code: -1000, msg: 'Not Found' } });
    const v2 = await spot.post(P.cancelPlan, { symbol: 'cmt_btcusdt', orderId: '1' });
    expect(v2).toMatchObject({ status: 404, json: { code: '40404', data: null } });
  });
});

describe('exchange simulator data: exchangeInfo', () => {
  it('is public and carries UTC, the server time, the budgets in force and the symbols', async () => {
    const res = await fetch(`${sim.url}${P.exchangeInfo}`);
    const info = (await res.json()) as { timezone: string; serverTime: number; rateLimits: unknown[]; symbols: Row[] };
    expect(res.status).toBe(200);
    expect(info).toMatchObject({ timezone: 'UTC', serverTime: now });
    expect(info.rateLimits.length).toBeGreaterThan(0);
    expect(info.rateLimits).toEqual(JSON.parse(JSON.stringify(sim.state.rateLimits)));
    for (const limit of info.rateLimits) {
      const window = { intervalNum: expect.any(Number), limit: expect.any(Number) };
      expect(limit).toEqual({ rateLimitType: 'REQUEST_WEIGHT', interval: 'SECOND', ...window });
    }
    expect(info.symbols.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
  });
});
