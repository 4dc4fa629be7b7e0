import { inspect } from 'node:util';
import { WeexApiError, type WeexClient } from '#libs/weex-client';
import { SANDBOX_CREDENTIALS } from '#libs/config';
import { closedPort } from './support/closed-port.js';
import { ALLOWLISTED_UID, NOT_ALLOWLISTED, WeexClientSim } from './support/weex-client-sim.js';
import {
  CANCEL_RESULT_FIELDS,
  INCOME_FIELDS,
  OPEN_ORDER_FIELDS,
  ORDER_FIELDS,
  PLAN_ORDER_FIELDS,
  POSITION_FIELDS,
  SPOT_BILL_FIELDS,
  SYMBOL_CONFIG_FIELDS,
  TRADE_FIELDS,
  type WireType,
} from './support/weex-spec-fields.js';

const LOG = { stage: 'decision', model: 'm-1', input: '{"q":1}', output: '{"a":2}', explanation: 'why', orderId: null };
let h: WeexClientSim;
let client: WeexClient;

/** Every field of the spec table, normalised: IDs as digit strings, times as ms numbers, the rest as the spec types. */
function expectNormalised(records: unknown[], fields: Record<string, WireType>): void {
  expect(records.length).toBeGreaterThan(0);
  for (const record of records as Record<string, unknown>[]) {
    for (const [name, type] of Object.entries(fields)) {
      const value = record[name];
      const time = /time$/i.test(name) || name === 'goodTillDate';
      const ok =
        time || type === 'Integer'
          ? Number.isSafeInteger(value)
          : type === 'Long'
            ? typeof value === 'string' && /^\d+$/.test(value)
            : typeof value === (type === 'Boolean' ? 'boolean' : 'string');
      if (!ok) throw new Error(`${name} (${type}) is not normalised: ${typeof value} ${String(value)}`);
    }
  }
}

/** The error a call fails with, checked to carry no secret. */
async function failure(call: Promise<unknown>): Promise<WeexApiError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WeexApiError);
  h.expectNoSecrets(error);
  return error as WeexApiError;
}

beforeAll(async () => {
  h = await WeexClientSim.start();
});
afterAll(async () => h?.close());
beforeEach(async () => {
  await h.reset();
  client = h.client();
});

describe('WeexClient against the simulator: every operation', () => {
  it('answers every read with its normalised shape', async () => {
    expectNormalised(await client.allPositions(), POSITION_FIELDS);
    expectNormalised((await client.income({ limit: 100 })).items, INCOME_FIELDS);
    expectNormalised(await client.openOrders(), OPEN_ORDER_FIELDS);
    // The simulator accepts only BTCUSDT on v3 paths: the client converted the v2 notation.
    expect((await client.orderHistory({ symbol: 'cmt_btcusdt' })).every((o) => o.symbol === 'BTCUSDT')).toBe(true);
    expectNormalised((await client.algoOrders()).orders, PLAN_ORDER_FIELDS);
    const history = await client.orderHistory({ limit: 50 });
    expectNormalised(history, ORDER_FIELDS);
    expectNormalised([await client.orderInfo({ orderId: history[0].orderId })], ORDER_FIELDS);
    expectNormalised(await client.userTrades(), TRADE_FIELDS);
    expectNormalised(await client.symbolConfig(), SYMBOL_CONFIG_FIELDS);
    expectNormalised(await client.spotBills({ limit: 100 }), SPOT_BILL_FIELDS);
    expect((await client.serverTime()).serverTime).toEqual(expect.any(Number));
    expect((await client.exchangeInfo()).rateLimits[0]).toMatchObject({ limit: expect.any(Number), intervalNum: expect.any(Number) });
  });

  it('uploads an AI log on the v3 and the v2 path', async () => {
    expect(await client.uploadAiLog(LOG)).toMatchObject({ httpStatus: 200, data: 'upload success', simulator: true });
    expect(await client.uploadAiLog(LOG, 'v2')).toMatchObject({ httpStatus: 200, code: '00000', data: 'upload success' });
  });

  it('returns 18-digit IDs digit-exact', async () => {
    const held = h.sim.state.account(ALLOWLISTED_UID)!.data.orders.map((o) => String(o.orderId));
    const open = await client.openOrders();
    expect(open[0].orderId).toMatch(/^\d{18}$/);
    expect(held).toEqual(expect.arrayContaining(open.map((o) => o.orderId)));
    expect((await client.orderInfo({ orderId: BigInt(open[0].orderId) })).orderId).toBe(open[0].orderId);
  });

  it('cancels orders and a plan order, and the queries then show them cancelled', async () => {
    const [order] = await client.openOrders();
    const batch = await client.cancelBatchOrders({ symbol: order.symbol, ids: [order.orderId] });
    expect(batch).toMatchObject({ result: true, orderIds: [order.orderId], symbol: `cmt_${order.symbol.toLowerCase()}` });
    expectNormalised(batch.cancelOrderResultList, CANCEL_RESULT_FIELDS);
    expect((await client.orderInfo({ orderId: order.orderId })).status).toBe('CANCELED');
    expect((await client.openOrders()).map((o) => o.orderId)).not.toContain(order.orderId);

    const plan = (await client.algoOrders()).orders.find((p) => p.algoStatus === 'UNTRIGGERED')!;
    expect(await client.cancelPlan({ symbol: plan.symbol, orderId: plan.algoId })).toMatchObject({ result: true, order_id: plan.algoId });
    expect((await client.algoOrders()).orders.find((p) => p.algoId === plan.algoId)?.algoStatus).toBe('CANCELED');
  });
});

describe('WeexClient against the simulator: each error kind, none carrying a secret', () => {
  it('auth: a wrong secret', async () => {
    const wrong = h.client({ credentials: { ...SANDBOX_CREDENTIALS, secret: 'wrong-secret' } });
    expect(await failure(wrong.allPositions())).toMatchObject({ kind: 'auth', httpStatus: 401, code: '-1047', operation: 'allPositions' });
    // Nor does the client itself, should someone log it.
    expect(inspect(wrong, { depth: 10, showHidden: true })).not.toMatch(/wrong-secret|sandbox-passphrase/);
  });

  it('permission: an upload from a UID not on the allowlist', async () => {
    const other = h.client({ credentials: NOT_ALLOWLISTED });
    expect(await failure(other.uploadAiLog(LOG))).toMatchObject({ kind: 'permission', httpStatus: 403, code: '-1051' });
  });

  it('invalid_request: an order the exchange does not know (the client cannot check that)', async () => {
    expect(await failure(client.orderInfo({ orderId: '1' }))).toMatchObject({ kind: 'invalid_request', httpStatus: 400 });
  });

  it('invalid_request before sending: the field is named and nothing reaches the exchange', async () => {
    const before = (await h.stats()).weight;
    expect(await failure(client.income({ limit: 101 }))).toMatchObject({ kind: 'invalid_request', field: 'limit', httpStatus: undefined });
    expect((await h.stats()).weight).toEqual(before);
  });

  it('rate_limited: a 429 storm on a write is not retried', async () => {
    await h.control('PUT', '/__sim/faults', { rateLimitStorm: true, paths: ['/capi/v2/order/cancel_plan'] });
    expect(await failure(client.cancelPlan({ symbol: 'BTCUSDT', orderId: '1' }))).toMatchObject({ kind: 'rate_limited', httpStatus: 429 });
    expect((await h.stats()).faults.rateLimited429).toBe(1);
  });

  it('transient: errorRate 1 on a write is not retried', async () => {
    await h.control('PUT', '/__sim/faults', { errorRate: 1, paths: ['/capi/v2/order/cancel_batch_orders'] });
    expect(await failure(client.cancelBatchOrders({ symbol: 'BTCUSDT', ids: ['1'] }))).toMatchObject({ kind: 'transient', httpStatus: 500 });
    expect((await h.stats()).faults.error500).toBe(1);
  });

  it('unavailable: the 521 HTML page of an IP not on the allowlist, and a closed port', async () => {
    await h.control('PUT', '/__sim/faults', { ipNotAllowed: true, paths: ['/capi/v3/order/uploadAiLog'] });
    expect(await failure(client.uploadAiLog(LOG))).toMatchObject({ kind: 'unavailable', httpStatus: 521 });
    const nowhere = h.client({ baseUrl: `http://127.0.0.1:${await closedPort()}`, retry: { maxAttempts: 1 } });
    expect(await failure(nowhere.allPositions())).toMatchObject({ kind: 'unavailable' });
  });

  it('uncertain: sent, then no answer (a hang past the timeout, a connection dropped after processing)', async () => {
    await h.control('PUT', '/__sim/faults', { hangRate: 1, paths: ['/capi/v3/order/uploadAiLog'] });
    expect(await failure(h.client({ timeoutMs: 300 }).uploadAiLog(LOG))).toMatchObject({ kind: 'uncertain' });
    await h.control('PUT', '/__sim/faults', { dropAfterProcessRate: 1, paths: ['/capi/v3/order/uploadAiLog'] });
    const uploads = h.sim.state.uploads().length;
    expect(await failure(client.uploadAiLog(LOG))).toMatchObject({ kind: 'uncertain' });
    expect(h.sim.state.uploads()).toHaveLength(uploads + 1);
  });
});
