import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringifyJson } from '#libs/common';
import { type RunningSimulator, SANDBOX_CREDENTIALS, startSimulator } from '../apps/exchange-sim/src/index.js';
import { SimDataClient } from './support/sim-data-client.js';
import { expectInvalidV2, NO_BUDGETS, PATHS as P, type Row, rows } from './support/sim-data-expect.js';
import { CANCEL_RESULT_FIELDS, expectShape, POSITION_FIELDS } from './support/weex-spec-fields.js';

let now = 1_767_225_600_000;
const ACCOUNT = { uid: '8000000001', ...SANDBOX_CREDENTIALS };
const v2 = (symbol: unknown) => `cmt_${String(symbol).toLowerCase()}`;

describe('exchange simulator data: cancellation changes the state', () => {
  let sim: RunningSimulator;
  let api: SimDataClient;

  beforeAll(async () => {
    sim = await startSimulator({ clock: () => now, budgets: NO_BUDGETS });
    api = new SimDataClient(sim.url, ACCOUNT, () => now);
  });

  afterAll(async () => {
    await sim?.close();
  });

  it('cancels open orders by id; unknown and final ones fail per order; the next queries show it', async () => {
    const [target] = rows(await api.get(P.openOrders));
    const final = rows(await api.get(P.orderHistory, { symbol: String(target.symbol) }))[0];
    now += 5_000;
    const ids = [String(target.orderId), '737185556881998189', String(final.orderId)];
    const answer = await api.post(P.cancelBatchOrders, { symbol: v2(target.symbol), ids });

    expect(answer.status).toBe(200);
    const result = answer.json as Row & { cancelOrderResultList: Row[]; failInfos: Row[] };
    expect(result).toMatchObject({ result: false, symbol: v2(target.symbol), orderIds: ids });
    expect(result.clientOids).toEqual([target.clientOrderId, '', final.clientOrderId]);
    result.cancelOrderResultList.forEach((r) => expectShape(r, CANCEL_RESULT_FIELDS));
    expect(result.cancelOrderResultList.map((r) => r.result)).toEqual([true, false, false]);
    expect(result.cancelOrderResultList[0]).toMatchObject({ err_code: '', err_msg: '', order_id: ids[0] });
    expect(result.failInfos).toEqual(result.cancelOrderResultList.slice(1));
    expect(result.failInfos.every((f) => f.err_code !== '' && f.err_msg !== '')).toBe(true);

    expect(rows(await api.get(P.openOrders)).map((o) => o.orderId)).not.toContain(target.orderId);
    const [latest] = rows(await api.get(P.orderHistory, { startTime: Number(target.time), endTime: Number(target.time) }));
    expect(latest).toMatchObject({ orderId: target.orderId, status: 'CANCELED', updateTime: now });
    expect((await api.get(P.orderInfo, { orderId: target.orderId as bigint })).json).toMatchObject({ status: 'CANCELED' });
  });

  it('cancels by client order id', async () => {
    const [target] = rows(await api.get(P.openOrders));
    const answer = await api.post(P.cancelBatchOrders, { symbol: v2(target.symbol), cids: [target.clientOrderId] });
    expect(answer.json).toMatchObject({ result: true, orderIds: [String(target.orderId)], failInfos: [] });
    expect(rows(await api.get(P.openOrders)).map((o) => o.orderId)).not.toContain(target.orderId);
  });

  it.each([
    ['both ids and cids', { symbol: 'cmt_btcusdt', ids: ['1'], cids: ['a'] }, 'ids'],
    ['neither ids nor cids', { symbol: 'cmt_btcusdt' }, 'ids'],
    ['an empty ids list', { symbol: 'cmt_btcusdt', ids: [] }, 'ids'],
    ['a v3 symbol', { symbol: 'BTCUSDT', ids: ['1'] }, 'symbol'],
    ['no symbol', { ids: ['1'] }, 'symbol'],
  ])('refuses %s with 40020 in the v2 envelope', async (_name, body, parameter) => {
    expectInvalidV2(await api.post(P.cancelBatchOrders, body), parameter, now);
  });

  it('cancels an UNTRIGGERED plan order: algoStatus becomes CANCELED; a second cancel and an unknown id fail', async () => {
    const { orders } = (await api.get(P.algoOrders)).json as { orders: Row[] };
    const plan = orders.find((p) => p.algoStatus === 'UNTRIGGERED')!;
    const body = { symbol: v2(plan.symbol), orderId: String(plan.algoId) };
    const answer = await api.post(P.cancelPlan, body);
    expect(answer.json).toEqual({
      order_id: String(plan.algoId),
      client_oid: plan.clientAlgoId,
      symbol: v2(plan.symbol),
      result: true,
      err_code: null,
      err_msg: null,
    });
    const after = ((await api.get(P.algoOrders)).json as { orders: Row[] }).orders.find((p) => p.algoId === plan.algoId);
    expect(after).toMatchObject({ algoStatus: 'CANCELED', updateTime: now });

    const again = (await api.post(P.cancelPlan, body)).json as Row;
    expect(again).toMatchObject({ result: false, err_code: expect.any(String), err_msg: expect.any(String) });
    const unknown = (await api.post(P.cancelPlan, { symbol: 'cmt_btcusdt', orderId: '737185556881998184' })).json as Row;
    expect(unknown).toMatchObject({ result: false, client_oid: null, err_code: expect.any(String) });
    expectInvalidV2(await api.post(P.cancelPlan, { symbol: 'cmt_btcusdt' }), 'orderId', now);
  });
});

describe('exchange simulator data: seed file', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sim-seed-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function seedFile(content: unknown): Promise<string> {
    const path = join(dir, `seed-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(path, typeof content === 'string' ? content : stringifyJson(content));
    return path;
  }

  it('serves the records a user wrote, fills in what they left out, and adds new accounts', async () => {
    const rehearsal = { uid: '9000000001', apiKey: 'k-9', secret: 's-9', passphrase: 'p-9', aiLogAllowlisted: false };
    const path = await seedFile({
      accounts: [
        {
          uid: ACCOUNT.uid,
          positions: [{ id: 737185556881998184n, symbol: 'BTCUSDT', side: 'SHORT', size: '1.5' }],
          orders: [{ orderId: '737185556881998185', symbol: 'ETHUSDT', status: 'NEW', origQty: 2, price: '3000' }],
        },
        rehearsal,
      ],
    });
    const sim = await startSimulator({ clock: () => now, seedFile: path, budgets: NO_BUDGETS });
    try {
      const api = new SimDataClient(sim.url, ACCOUNT, () => now);
      const positions = await api.get(P.allPositions);
      expect(positions.text).toContain('"id":737185556881998184,');
      expect(rows(positions)).toHaveLength(1);
      expectShape(rows(positions)[0], POSITION_FIELDS);
      expect(rows(positions)[0]).toMatchObject({ symbol: 'BTCUSDT', side: 'SHORT', size: '1.5' });

      const [order] = rows(await api.get(P.openOrders));
      expect(order).toMatchObject({ orderId: 737185556881998185n, origQty: '2', executedQty: '0', status: 'NEW' });
      // Only the generated plan orders that ended untriggered: order/history lists them under their algoId.
      const history = rows(await api.get(P.orderHistory));
      expect(history.length).toBeGreaterThan(0);
      expect(history.every((o) => ['CANCELED', 'EXPIRED'].includes(String(o.status)) && String(o.type).match(/^(STOP|TAKE_PROFIT)/))).toBe(true);
      expect(((await api.post(P.income)).json as { items: Row[] }).items.length).toBeGreaterThan(0);

      const other = new SimDataClient(sim.url, rehearsal, () => now);
      expect(rows(await other.get(P.allPositions)).length).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });

  it('loads the example file of the README', async () => {
    const example = new URL('../apps/exchange-sim/seed.example.json', import.meta.url).pathname;
    const sim = await startSimulator({ clock: () => now, seedFile: example });
    try {
      const api = new SimDataClient(sim.url, ACCOUNT, () => now);
      expect(rows(await api.get(P.allPositions))).toMatchObject([{ id: 737185556881998184n, side: 'SHORT' }]);
    } finally {
      await sim.close();
    }
  });

  it.each([
    ['an unknown key', { accounts: [{ uid: ACCOUNT.uid, algoOrders: [] }] }, /unknown keys: algoOrders/],
    ['a new uid without credentials', { accounts: [{ uid: '9000000002' }] }, /accounts\[0\]\.apiKey/],
    ['an ID that is not an integer', { accounts: [{ uid: ACCOUNT.uid, orders: [{ orderId: 'x1' }] }] }, /orders\[0\]\.orderId/],
    ['no accounts list', {}, /"accounts" must be an array/],
    ['text that is not JSON', '{"accounts": [', /seed file/],
  ])('refuses a file with %s, naming the problem', async (_name, content, message) => {
    await expect(startSimulator({ seedFile: await seedFile(content) })).rejects.toThrow(message);
  });
});
