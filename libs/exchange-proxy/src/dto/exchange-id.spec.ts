import { LosslessNumber } from '#libs/common';
import { exchangeId, MAX_EXCHANGE_ID, readExchangeId } from './exchange-id.js';

describe('readExchangeId', () => {
  it.each<[unknown, string]>([
    ['737185556881998184', '737185556881998184'],
    [737185556881998184n, '737185556881998184'],
    [42, '42'],
    ['0042', '42'],
    [MAX_EXCHANGE_ID, '9223372036854775807'],
  ])('reads %p as %s', (value, digits) => {
    expect(readExchangeId(value, 'ids.0')).toEqual({ digits });
  });

  it.each<unknown>([0, '0', -1, '-1', MAX_EXCHANGE_ID + 1n, '12ab', '', 1.5, new LosslessNumber('1E2'), null, true, [1], '1'.repeat(41)])(
    'refuses %p, naming the path',
    (value) => {
      expect(readExchangeId(value, 'ids.0')).toEqual({ error: expect.stringContaining('ids.0 must be') });
    },
  );

  it('allows 0 where the minimum is 0 (an "after this ID" filter)', () => {
    expect(readExchangeId('0', 'orderId', 0n)).toEqual({ digits: '0' });
    expect(exchangeId(0n)).toBe('0');
  });
});
