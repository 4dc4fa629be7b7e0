import { algoOrders, cancelBatchOrders, cancelPlan, openOrders, orderHistory, orderInfo } from './orders.api.js';
import { DAY_MS } from './request-validation.js';
import { fakeCaller, refusal } from './testing/fake-caller.js';
import type { CancelBatchOrdersRequest } from './types/order.types.js';

const T = Date.UTC(2026, 0, 1);

describe('openOrders', () => {
  it('builds the query once, in the spec table order, whatever the order of the request fields', async () => {
    const caller = fakeCaller();
    await openOrders(caller, { page: 2, limit: 50, endTime: T + 1, startTime: T, orderId: '737185556881998184', symbol: 'cmt_btcusdt' });
    expect(caller.calls[0]).toMatchObject({
      operation: 'openOrders',
      query: `symbol=BTCUSDT&orderId=737185556881998184&startTime=${T}&endTime=${T + 1}&limit=50&page=2`,
    });
  });

  it('sends the default limit 100', async () => {
    const caller = fakeCaller();
    await openOrders(caller);
    expect(caller.calls[0].query).toBe('limit=100');
  });

  it.each([0, 101, 1.5])('refuses limit %s (1-100)', async (limit) => {
    expect((await refusal((c) => openOrders(c, { limit }))).field).toBe('limit');
  });

  it('refuses a negative page', async () => {
    expect((await refusal((c) => openOrders(c, { page: -1 }))).field).toBe('page');
  });

  it('refuses an orderId that is not digits', async () => {
    const error = await refusal((c) => openOrders(c, { orderId: '12a' }));
    expect(error.field).toBe('orderId');
    expect(error.message).toMatch(/digits/);
  });
});

describe('algoOrders', () => {
  it('sends the default limit 500', async () => {
    const caller = fakeCaller('{"orders":[],"hasMore":false}');
    await algoOrders(caller, { symbol: 'ETHUSDT' });
    expect(caller.calls[0].query).toBe('symbol=ETHUSDT&limit=500');
  });

  it.each([0, 1001])('refuses limit %s (1-1000)', async (limit) => {
    expect((await refusal((c) => algoOrders(c, { limit }))).field).toBe('limit');
  });

  it('refuses a window over 90 days', async () => {
    const error = await refusal((c) => algoOrders(c, { startTime: T, endTime: T + 90 * DAY_MS + 1 }));
    expect(error).toMatchObject({ field: 'endTime', message: expect.stringMatching(/90 days/) });
  });
});

describe('orderInfo', () => {
  it('requires orderId', async () => {
    expect((await refusal((c) => orderInfo(c, {} as { orderId: string }))).field).toBe('orderId');
  });

  it('refuses an orderId given as a JS number, which may already have lost digits', async () => {
    expect((await refusal((c) => orderInfo(c, { orderId: 737185556881998200 as unknown as string }))).field).toBe('orderId');
  });

  it('takes a bigint orderId and sends its digits', async () => {
    const caller = fakeCaller('{"orderId":737185556881998184}');
    const order = await orderInfo(caller, { orderId: 737185556881998184n });
    expect(caller.calls[0].query).toBe('orderId=737185556881998184');
    expect(order.orderId).toBe('737185556881998184');
  });
});

describe('orderHistory', () => {
  it('sends the default limit 500 and the times in table order', async () => {
    const caller = fakeCaller();
    await orderHistory(caller, { endTime: T + 1, startTime: T });
    expect(caller.calls[0].query).toBe(`limit=500&startTime=${T}&endTime=${T + 1}`);
  });

  it.each([0, 1001])('refuses limit %s (1-1000)', async (limit) => {
    expect((await refusal((c) => orderHistory(c, { limit }))).field).toBe('limit');
  });

  it('refuses startTime after endTime', async () => {
    expect((await refusal((c) => orderHistory(c, { startTime: T + 1, endTime: T }))).field).toBe('endTime');
  });

  it('refuses a window over 90 days', async () => {
    expect((await refusal((c) => orderHistory(c, { startTime: T, endTime: T + 91 * DAY_MS }))).field).toBe('endTime');
  });

  it('refuses a negative page', async () => {
    expect((await refusal((c) => orderHistory(c, { page: -1 }))).field).toBe('page');
  });
});

describe('cancelBatchOrders', () => {
  it('sends the v2 symbol and the ids as digit strings', async () => {
    const caller = fakeCaller('{"result":true,"orderIds":["737185556881998184"]}');
    await cancelBatchOrders(caller, { symbol: 'BTCUSDT', ids: ['737185556881998184', 5n] });
    expect(caller.calls[0]).toMatchObject({ operation: 'cancelBatchOrders', body: '{"symbol":"cmt_btcusdt","ids":["737185556881998184","5"]}' });
  });

  it('requires exactly one of ids and cids', async () => {
    const neither = { symbol: 'BTCUSDT' } as CancelBatchOrdersRequest;
    const both = { symbol: 'BTCUSDT', ids: ['1'], cids: ['a'] } as unknown as CancelBatchOrdersRequest;
    expect((await refusal((c) => cancelBatchOrders(c, neither))).field).toBe('ids');
    expect((await refusal((c) => cancelBatchOrders(c, both))).field).toBe('ids');
  });

  it('refuses an empty list', async () => {
    expect((await refusal((c) => cancelBatchOrders(c, { symbol: 'BTCUSDT', cids: [] }))).field).toBe('cids');
  });

  it('refuses an id that is not digits, naming its position', async () => {
    expect((await refusal((c) => cancelBatchOrders(c, { symbol: 'BTCUSDT', ids: ['1', '-2'] }))).field).toBe('ids[1]');
  });

  it('requires a symbol', async () => {
    expect((await refusal((c) => cancelBatchOrders(c, { ids: ['1'] } as CancelBatchOrdersRequest))).field).toBe('symbol');
  });
});

describe('cancelPlan', () => {
  it('sends the v2 symbol and the orderId as a string', async () => {
    const caller = fakeCaller('{"order_id":737185556881998184,"result":true}');
    const result = await cancelPlan(caller, { symbol: 'cmt_ethusdt', orderId: '737185556881998184' });
    expect(caller.calls[0].body).toBe('{"symbol":"cmt_ethusdt","orderId":"737185556881998184"}');
    expect(result.order_id).toBe('737185556881998184');
  });

  it('requires symbol and orderId', async () => {
    expect((await refusal((c) => cancelPlan(c, { orderId: '1' } as never))).field).toBe('symbol');
    expect((await refusal((c) => cancelPlan(c, { symbol: 'BTCUSDT' } as never))).field).toBe('orderId');
  });
});
