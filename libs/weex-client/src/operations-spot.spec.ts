import { callOperation } from './operation-request.js';
import { fakeCaller, refusal } from './testing/fake-caller.js';

describe('spotBills', () => {
  it('sends the default limit 10', async () => {
    const caller = fakeCaller();
    await callOperation(caller, 'spotBills', { bizType: 'deposit' });
    expect(caller.calls[0]).toMatchObject({ operation: 'spotBills', body: '{"bizType":"deposit","limit":10}' });
  });

  it.each([0, 101])('refuses limit %s (at most 100)', async (limit) => {
    expect((await refusal((c) => callOperation(c, 'spotBills', { limit }))).field).toBe('limit');
  });

  it('turns the string cTime into a number and keeps billId and coinId', async () => {
    const bills = await callOperation(fakeCaller('[{"billId":"737185556881998184","coinId":2,"cTime":"1767225600000","fees":"0"}]'), 'spotBills', {});
    expect(bills).toEqual([{ billId: '737185556881998184', coinId: 2, cTime: 1767225600000, fees: '0' }]);
  });
});
