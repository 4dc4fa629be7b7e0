import { callOperation } from './operation-request.js';
import { DAY_MS } from './request-validation.js';
import { fakeCaller, refusal } from './testing/fake-caller.js';

const NOW = Date.UTC(2026, 0, 31);
const bodyOf = (caller: ReturnType<typeof fakeCaller>) => JSON.parse(caller.calls[0].body!);
const PAGE = '{"hasNextPage":false,"items":[]}';

describe('income', () => {
  it('sends the default limit 20 and nothing else when nothing is given', async () => {
    const caller = fakeCaller(PAGE, NOW);
    await callOperation(caller, 'income', {});
    expect(caller.calls[0]).toMatchObject({ operation: 'income', body: '{"limit":20}' });
  });

  it('sends the fields in the spec table order, with the v3 symbol', async () => {
    const caller = fakeCaller(PAGE, NOW);
    await callOperation(caller, 'income', { limit: 5, endTime: NOW, startTime: NOW - DAY_MS, incomeType: 'deposit', symbol: 'cmt_btcusdt', asset: 'USDT' });
    expect(caller.calls[0].body).toBe(`{"asset":"USDT","symbol":"BTCUSDT","incomeType":"deposit","startTime":${NOW - DAY_MS},"endTime":${NOW},"limit":5}`);
  });

  it.each([0, 101, 2.5])('refuses limit %s (1-100)', async (limit) => {
    expect((await refusal((c) => callOperation(c, 'income', { limit }))).field).toBe('limit');
  });

  it('with only endTime, starts 30 days before it', async () => {
    const caller = fakeCaller(PAGE, NOW);
    await callOperation(caller, 'income', { endTime: NOW - DAY_MS });
    expect(bodyOf(caller)).toMatchObject({ startTime: NOW - 31 * DAY_MS, endTime: NOW - DAY_MS });
  });

  it('with only startTime, ends now', async () => {
    const caller = fakeCaller(PAGE, NOW);
    await callOperation(caller, 'income', { startTime: NOW - DAY_MS });
    expect(bodyOf(caller)).toMatchObject({ startTime: NOW - DAY_MS, endTime: NOW });
  });

  it('with both, refuses a range over 100 days', async () => {
    const error = await refusal((c) => callOperation(c, 'income', { startTime: NOW - 101 * DAY_MS, endTime: NOW }));
    expect(error).toMatchObject({ field: 'endTime', message: expect.stringMatching(/100 days/) });
  });

  it('refuses startTime after endTime', async () => {
    expect((await refusal((c) => callOperation(c, 'income', { startTime: NOW, endTime: NOW - 1 }))).field).toBe('endTime');
  });

  it('refuses a time that is not whole ms', async () => {
    expect((await refusal((c) => callOperation(c, 'income', { startTime: -5 }))).field).toBe('startTime');
  });

  it('normalises items: billId digit-exact, time a number, amounts decimal text', async () => {
    const answer = '{"hasNextPage":true,"items":[{"billId":737185556881998184,"time":"1767225600000","income":-0.00000012,"asset":"USDT"}]}';
    const page = await callOperation(fakeCaller(answer, NOW), 'income', {});
    expect(page).toEqual({ hasNextPage: true, items: [{ billId: '737185556881998184', time: 1767225600000, income: '-0.00000012', asset: 'USDT' }] });
  });
});

describe('allPositions and symbolConfig', () => {
  it('normalise position IDs and times', async () => {
    const answer =
      '[{"id":737185556881998184,"separatedOpenOrderId":"737185556881998185","createdMatchSequenceId":12,"createdTime":1767225600000,"size":"0.5","isAutoAppendIsolatedMargin":false}]';
    expect(await callOperation(fakeCaller(answer), 'allPositions', {})).toEqual([
      {
        id: '737185556881998184',
        separatedOpenOrderId: '737185556881998185',
        createdMatchSequenceId: '12',
        createdTime: 1767225600000,
        size: '0.5',
        isAutoAppendIsolatedMargin: false,
      },
    ]);
  });

  it('symbolConfig sends the symbol in v3 notation, or no query for all symbols', async () => {
    const caller = fakeCaller();
    await callOperation(caller, 'symbolConfig', { symbol: 'cmt_ethusdt' });
    await callOperation(caller, 'symbolConfig', {});
    expect(caller.calls.map((c) => c.query)).toEqual(['symbol=ETHUSDT', '']);
  });
});
