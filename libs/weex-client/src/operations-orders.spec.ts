import { callOperation } from './operation-request.js';
import { DAY_MS } from './request-validation.js';
import { fakeCaller, refusal } from './testing/fake-caller.js';
import type { CancelBatchOrdersRequest } from './types/order.types.js';

const T = Date.UTC(2026, 0, 1);

describe('openOrders', () => {
  it('builds the query once, in the spec table order, whatever the order of the request fields', async () => {
    const caller = fakeCaller();
    await callOperation(caller, 'openOrders', { page: 2, limit: 50, endTime: T + 1, startTime: T, orderId: '737185556881998184', symbol: 'cmt_btcusdt' });
    expect(caller.calls[0]).toMatchObject({
      operation: 'openOrders',
      query: `symbol=BTCUSDT&orderId=737185556881998184&startTime=${T}&endTime=${T + 1}&limit=50&page=2`,
    });
  });

  it('sends the default limit 100', async () => {
    const caller = fakeCaller();
    await callOperation(caller, 'openOrders', {});
    expect(caller.calls[0].query).toBe('limit=100');
  });

  it.each([0, 101, 1.5])('refuses limit %s (1-100)', async (limit) => {
    expect((await refusal((c) => callOperation(c, 'openOrders', { limit }))).field).toBe('limit');
  });

  it('refuses a negative page', async () => {
    expect((await refusal((c) => callOperation(c, 'openOrders', { page: -1 }))).field).toBe('page');
  });

  it('refuses an orderId that is not digits', async () => {
    const error = await refusal((c) => callOperation(c, 'openOrders', { orderId: '12a' }));
    expect(error.field).toBe('orderId');
    expect(error.message).toMatch(/digits/);
  });
});

describe('algoOrders', () => {
  it('sends the default limit 500', async () => {
    const caller = fakeCaller('{"orders":[],"hasMore":false}');
    await callOperation(caller, 'algoOrders', { symbol: 'ETHUSDT' });
    expect(caller.calls[0].query).toBe('symbol=ETHUSDT&limit=500');
  });

  it.each([0, 1001])('refuses limit %s (1-1000)', async (limit) => {
    expect((await refusal((c) => callOperation(c, 'algoOrders', { limit }))).field).toBe('limit');
  });

  it('refuses a window over 90 days', async () => {
    const error = await refusal((c) => callOperation(c, 'algoOrders', { startTime: T, endTime: T + 90 * DAY_MS + 1 }));
    expect(error).toMatchObject({ field: 'endTime', message: expect.stringMatching(/90 days/) });
  });
});

describe('orderInfo', () => {
  it('requires orderId', async () => {
    expect((await refusal((c) => callOperation(c, 'orderInfo', {} as { orderId: string }))).field).toBe('orderId');
  });

  it('refuses an orderId given as a JS number, which may already have lost digits', async () => {
    expect((await refusal((c) => callOperation(c, 'orderInfo', { orderId: 737185556881998200 as unknown as string }))).field).toBe('orderId');
  });

  it('takes a bigint orderId and sends its digits', async () => {
    const caller = fakeCaller('{"orderId":737185556881998184}');
    const order = await callOperation(caller, 'orderInfo', { orderId: 737185556881998184n });
    expect(caller.calls[0].query).toBe('orderId=737185556881998184');
    expect(order.orderId).toBe('737185556881998184');
  });
});

describe('orderHistory', () => {
  it('sends the default limit 500 and the times in table order', async () => {
    const caller = fakeCaller();
    await callOperation(caller, 'orderHistory', { endTime: T + 1, startTime: T });
    expect(caller.calls[0].query).toBe(`limit=500&startTime=${T}&endTime=${T + 1}`);
  });

  it.each([0, 1001])('refuses limit %s (1-1000)', async (limit) => {
    expect((await refusal((c) => callOperation(c, 'orderHistory', { limit }))).field).toBe('limit');
  });

  it('refuses startTime after endTime', async () => {
    expect((await refusal((c) => callOperation(c, 'orderHistory', { startTime: T + 1, endTime: T }))).field).toBe('endTime');
  });

  it('refuses a window over 90 days', async () => {
    expect((await refusal((c) => callOperation(c, 'orderHistory', { startTime: T, endTime: T + 91 * DAY_MS }))).field).toBe('endTime');
  });

  it('refuses a negative page', async () => {
    expect((await refusal((c) => callOperation(c, 'orderHistory', { page: -1 }))).field).toBe('page');
  });
});

describe('cancelBatchOrders', () => {
  it('sends the v2 symbol and the ids as digit strings', async () => {
    const caller = fakeCaller('{"result":true,"orderIds":["737185556881998184"]}');
    await callOperation(caller, 'cancelBatchOrders', { symbol: 'BTCUSDT', ids: ['737185556881998184', 5n] });
    expect(caller.calls[0]).toMatchObject({ operation: 'cancelBatchOrders', body: '{"symbol":"cmt_btcusdt","ids":["737185556881998184","5"]}' });
  });

  it('requires exactly one of ids and cids', async () => {
    const neither = { symbol: 'BTCUSDT' } as CancelBatchOrdersRequest;
    const both = { symbol: 'BTCUSDT', ids: ['1'], cids: ['a'] } as unknown as CancelBatchOrdersRequest;
    expect((await refusal((c) => callOperation(c, 'cancelBatchOrders', neither))).field).toBe('ids');
    expect((await refusal((c) => callOperation(c, 'cancelBatchOrders', both))).field).toBe('ids');
  });

  it('refuses an empty list', async () => {
    expect((await refusal((c) => callOperation(c, 'cancelBatchOrders', { symbol: 'BTCUSDT', cids: [] }))).field).toBe('cids');
  });

  it('refuses an id that is not digits, naming its position', async () => {
    expect((await refusal((c) => callOperation(c, 'cancelBatchOrders', { symbol: 'BTCUSDT', ids: ['1', '-2'] }))).field).toBe('ids[1]');
  });

  it('requires a symbol', async () => {
    expect((await refusal((c) => callOperation(c, 'cancelBatchOrders', { ids: ['1'] } as CancelBatchOrdersRequest))).field).toBe('symbol');
  });
});

describe('cancelPlan', () => {
  it('sends the v2 symbol and the orderId as a string', async () => {
    const caller = fakeCaller('{"order_id":737185556881998184,"result":true}');
    const result = await callOperation(caller, 'cancelPlan', { symbol: 'cmt_ethusdt', orderId: '737185556881998184' });
    expect(caller.calls[0].body).toBe('{"symbol":"cmt_ethusdt","orderId":"737185556881998184"}');
    expect(result.order_id).toBe('737185556881998184');
  });

  it('requires symbol and orderId', async () => {
    expect((await refusal((c) => callOperation(c, 'cancelPlan', { orderId: '1' } as never))).field).toBe('symbol');
    expect((await refusal((c) => callOperation(c, 'cancelPlan', { symbol: 'BTCUSDT' } as never))).field).toBe('orderId');
  });
});
