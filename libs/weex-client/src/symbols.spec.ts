import { toV2Symbol, toV3Symbol } from './symbols.js';

describe('symbol notations', () => {
  it.each([
    ['BTCUSDT', 'BTCUSDT', 'cmt_btcusdt'],
    ['cmt_btcusdt', 'BTCUSDT', 'cmt_btcusdt'],
    ['CMT_ETHUSDT', 'ETHUSDT', 'cmt_ethusdt'],
    ['ethusdt', 'ETHUSDT', 'cmt_ethusdt'],
  ])('%s is %s in v3 and %s in v2', (given, v3, v2) => {
    expect(toV3Symbol(given)).toBe(v3);
    expect(toV2Symbol(given)).toBe(v2);
  });

  it.each(['BTC-USDT', '', 'cmt_', 'BTC USDT'])('refuses %j, naming the symbol field', (given) => {
    expect(() => toV3Symbol(given, 'openOrders')).toThrow(expect.objectContaining({ kind: 'invalid_request', field: 'symbol', operation: 'openOrders' }));
  });
});
