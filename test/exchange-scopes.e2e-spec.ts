import { apiCaller, simData, simWeight } from './support/exchange-api.js';
import { gatewaySuite, type GatewaySuite } from './support/gateway-suite.js';

const KEY = 'agent-key-for-exchange-scope-tests';
const QUERIES = [
  '/v1/positions',
  '/v1/income',
  '/v1/orders/open',
  '/v1/orders/history',
  '/v1/orders/737185556881998184',
  '/v1/algo-orders',
  '/v1/trades',
  '/v1/symbol-config',
  '/v1/spot/bills',
];

function cancelBodies(suite: GatewaySuite): Array<[string, object]> {
  const order = simData(suite).orders.find((o) => o.status === 'NEW')!;
  const plan = simData(suite).planOrders.find((p) => p.algoStatus === 'UNTRIGGERED')!;
  return [
    ['/v1/orders/cancel-batch', { symbol: order.symbol, ids: [String(order.orderId)] }],
    ['/v1/plan-orders/cancel', { symbol: plan.symbol, orderId: String(plan.algoId) }],
  ];
}

/** 403 in the one error shape, naming the scope; nothing reached the exchange and nothing was cancelled. */
async function expectRefused(suite: GatewaySuite, send: () => Promise<{ status: number; body: any }>, scope: string): Promise<void> {
  const before = simWeight(suite);
  const res = await send();
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN', message: expect.stringContaining(scope), requestId: expect.any(String) });
  expect(simWeight(suite)).toEqual(before);
}

describe('a key with exchange:read only', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, AGENT_API_KEY_SCOPES: 'exchange:read' }, { worker: false });

  it('reads the account, and gets 403 naming exchange:cancel on both cancels; the orders stay open', async () => {
    const api = apiCaller(suite, KEY);
    expect((await api.get('/v1/orders/open')).status).toBe(200);
    const open = simData(suite).orders.filter((o) => o.status === 'NEW');
    const waiting = simData(suite).planOrders.filter((p) => p.algoStatus === 'UNTRIGGERED');
    for (const [path, body] of cancelBodies(suite)) await expectRefused(suite, () => api.post(path, body), 'exchange:cancel');
    expect(open.every((o) => o.status === 'NEW')).toBe(true);
    expect(waiting.every((p) => p.algoStatus === 'UNTRIGGERED')).toBe(true);
  });
});

describe('a key with logs:write only', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, AGENT_API_KEY_SCOPES: 'logs:write' }, { worker: false });

  it('gets 403 naming exchange:read on every query, and exchange:cancel on every cancel', async () => {
    const api = apiCaller(suite, KEY);
    for (const path of QUERIES) await expectRefused(suite, () => api.get(path), 'exchange:read');
    for (const [path, body] of cancelBodies(suite)) await expectRefused(suite, () => api.post(path, body), 'exchange:cancel');
  });

  it('refuses a missing or unknown key with 401 before anything else', async () => {
    for (const key of ['', 'not-a-key-of-this-gateway']) {
      const res = await apiCaller(suite, key).get('/v1/positions');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });
});
