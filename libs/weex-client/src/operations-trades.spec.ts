import { DAY_MS } from './request-validation.js';
import { fakeCaller, refusal } from './testing/fake-caller.js';
import { callOperation } from './operation-request.js';

const T = Date.UTC(2026, 0, 1);

describe('userTrades', () => {
  it('sends the default limit 100, the query in the spec table order', async () => {
    const caller = fakeCaller();
    await callOperation(caller, 'userTrades', { endTime: T + DAY_MS, orderId: '737185556881998184', startTime: T, symbol: 'cmt_btcusdt' });
    expect(caller.calls[0].query).toBe(`symbol=BTCUSDT&orderId=737185556881998184&startTime=${T}&endTime=${T + DAY_MS}&limit=100`);
  });

  it.each([0, 101])('refuses limit %s (1-100)', async (limit) => {
    expect((await refusal((c) => callOperation(c, 'userTrades', { limit }))).field).toBe('limit');
  });

  it('refuses endTime before startTime', async () => {
    expect((await refusal((c) => callOperation(c, 'userTrades', { startTime: T, endTime: T - 1 }))).field).toBe('endTime');
  });

  it('normalises trade and order IDs to digit-exact strings', async () => {
    const trades = await callOperation(
      fakeCaller('[{"id":"737185556881998184","orderId":737185556881998185,"time":1767225600000,"price":"97000.1"}]'),
      'userTrades',
      {},
    );
    expect(trades).toEqual([{ id: '737185556881998184', orderId: '737185556881998185', time: 1767225600000, price: '97000.1' }]);
  });
});
