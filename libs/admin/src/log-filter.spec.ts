import { ValidationFailedException } from '#libs/validation';
import { decodeCursor, encodeCursor, toLogFilter } from './log-filter.js';
import { parseInstant } from './log-query.dto.js';

describe('log filter and query', () => {
  it.each([
    ['2026-11-21T19:00:00Z', 1_795_287_600_000],
    ['2026-11-21T20:00:00.000+01:00', 1_795_287_600_000],
    ['1795287600000', 1_795_287_600_000],
    [1_795_287_600_000, 1_795_287_600_000],
  ])('reads %p as an instant', (input, ms) => {
    expect(parseInstant(input)?.getTime()).toBe(ms);
  });

  it.each(['2026-11-21T19:00:00', '2026-11-21', 'yesterday', '', '-5', -5, 1.5, '2026-13-45T99:00:00Z', '2026-11-31T00:00:00Z', '2026-02-30T12:00:00+01:00'])(
    'refuses %p',
    (input) => {
      expect(parseInstant(input)).toBeUndefined();
    },
  );

  it('round-trips a cursor, and refuses one it did not make', () => {
    const cursor = { receivedAt: new Date(1_795_287_600_123), id: '01a20526-1dc6-784c-88ac-869902b0d681' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(() => decodeCursor('bm9wZQ')).toThrow(ValidationFailedException);
  });

  it('splits statuses and refuses a window that ends before it starts', () => {
    expect(toLogFilter({ status: 'failed,retrying', error: 'x' })).toMatchObject({ statuses: ['failed', 'retrying'], errorContains: 'x' });
    try {
      toLogFilter({ from: '2026-11-21T19:00:00Z', to: '2026-11-21T19:00:00Z' });
      throw new Error('accepted');
    } catch (error) {
      expect((error as ValidationFailedException).errors).toEqual([{ path: 'to', message: 'to must be later than from' }]);
    }
  });
});
