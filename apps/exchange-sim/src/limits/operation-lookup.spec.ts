import { byRoute, findOperation } from './operation-lookup.js';

describe('the operations the simulator charges', () => {
  it('finds a spec operation and a sandbox one by method and path', () => {
    expect(findOperation('GET', '/capi/v3/openOrders?limit=1')).toMatchObject({ ipWeight: 2, uidWeight: 3 });
    expect(findOperation('POST', '/capi/v3/order')).toBeDefined();
  });

  it('refuses a route declared twice, at load rather than when Fastify registers it', () => {
    const twice = [
      { method: 'GET', path: '/capi/v3/account/balance', ipWeight: 1, uidWeight: 1 },
      { method: 'get', path: '/capi/v3/account/balance', ipWeight: 2, uidWeight: 5 },
    ];
    expect(() => byRoute(twice)).toThrow('GET /capi/v3/account/balance is declared twice');
  });
});
