import { buildBody, buildQuery } from './query-string.js';

describe('buildQuery', () => {
  it('keeps the given order, leaves out unset parameters and encodes values', () => {
    expect(
      buildQuery([
        ['symbol', 'BTCUSDT'],
        ['orderId', undefined],
        ['startTime', 1],
        ['clientOid', 'a b&c'],
      ]),
    ).toBe('symbol=BTCUSDT&startTime=1&clientOid=a%20b%26c');
  });

  it('is empty when nothing is set', () => {
    expect(buildQuery([['symbol', undefined]])).toBe('');
  });
});

describe('buildBody', () => {
  it('keeps the given order and leaves out unset fields', () => {
    expect(
      buildBody([
        ['b', 1],
        ['a', undefined],
        ['c', ['1']],
      ]),
    ).toBe('{"b":1,"c":["1"]}');
  });
});
