import { apiCaller, expectFieldErrors, simData, simWeight } from './support/exchange-api.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { CANCEL_RESULT_FIELDS, expectShape } from './support/weex-spec-fields.js';

const KEY = 'agent-key-for-exchange-cancels';

interface OrderView {
  orderId: string;
  clientOrderId: string;
  symbol: string;
  status: string;
}

describe('cancels over the client library, visible in the next query', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY }, { worker: false });
  const api = () => apiCaller(suite, KEY);
  const openOrders = async (): Promise<OrderView[]> => (await api().get('/v1/orders/open')).body.data;
  const heldStatus = (orderId: string) => simData(suite).orders.find((o) => String(o.orderId) === orderId)?.status;

  it('cancels an open order by ID: it leaves /v1/orders/open and shows CANCELED in history and by ID', async () => {
    const [order] = await openOrders();
    const res = await api().post('/v1/orders/cancel-batch', { symbol: order.symbol, ids: [order.orderId] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: true,
      symbol: `cmt_${order.symbol.toLowerCase()}`,
      orderIds: [order.orderId],
      clientOids: [order.clientOrderId],
      cancelOrderResultList: [{ err_code: '', err_msg: '', order_id: order.orderId, client_oid: order.clientOrderId, result: true }],
      failInfos: [],
    });
    expectShape(res.body.cancelOrderResultList[0], CANCEL_RESULT_FIELDS);
    expect((await openOrders()).map((o) => o.orderId)).not.toContain(order.orderId);
    expect((await api().get(`/v1/orders/${order.orderId}`)).body).toMatchObject({ orderId: order.orderId, status: 'CANCELED' });
    const history = (await api().get('/v1/orders/history?limit=1000')).body.data as OrderView[];
    expect(history.find((o) => o.orderId === order.orderId)).toMatchObject({ status: 'CANCELED' });
  });

  it('takes an 18-digit ID as a bare JSON integer without losing a digit', async () => {
    const [order] = await openOrders();
    // Written by hand: JSON.stringify could not write this number, and JSON.parse would have rounded it.
    const res = await api().post('/v1/orders/cancel-batch', `{"symbol":"${order.symbol}","ids":[${order.orderId}]}`);
    expect(res.body).toMatchObject({ result: true, orderIds: [order.orderId] });
    expect(heldStatus(order.orderId)).toBe('CANCELED');
  });

  it('cancels by client order ID with the v2 symbol notation', async () => {
    const [order] = await openOrders();
    const symbol = `cmt_${order.symbol.toLowerCase()}`;
    const res = await api().post('/v1/orders/cancel-batch', { symbol, cids: [order.clientOrderId] });
    expect(res.body).toMatchObject({ result: true, clientOids: [order.clientOrderId], cancelOrderResultList: [{ order_id: order.orderId, result: true }] });
    expect(heldStatus(order.orderId)).toBe('CANCELED');
  });

  it('reports an order that cannot be cancelled in failInfos, with the exchange’s code, as a 200', async () => {
    const done = simData(suite).orders.find((o) => o.status === 'FILLED')!;
    const res = await api().post('/v1/orders/cancel-batch', { symbol: done.symbol, ids: [String(done.orderId)] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: false, failInfos: [{ order_id: String(done.orderId), result: false, err_code: '43004' }] });
    expect(heldStatus(String(done.orderId))).toBe('FILLED');
  });

  it('cancels a plan order: /v1/algo-orders then shows algoStatus CANCELED', async () => {
    const plans = (await api().get('/v1/algo-orders?limit=1000')).body.orders as Array<{ algoId: string; symbol: string; algoStatus: string }>;
    const [first, second] = plans.filter((p) => p.algoStatus === 'UNTRIGGERED');
    const res = await api().post('/v1/plan-orders/cancel', { symbol: first.symbol, orderId: first.algoId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      order_id: first.algoId,
      client_oid: expect.any(String),
      symbol: `cmt_${first.symbol.toLowerCase()}`,
      result: true,
      err_code: null,
      err_msg: null,
    });
    const after = (await api().get('/v1/algo-orders?limit=1000')).body.orders as Array<{ algoId: string; algoStatus: string }>;
    expect(after.find((p) => p.algoId === first.algoId)?.algoStatus).toBe('CANCELED');
    // A bare integer ID, and the v2 notation, work here too.
    const raw = await api().post('/v1/plan-orders/cancel', `{"symbol":"cmt_${second.symbol.toLowerCase()}","orderId":${second.algoId}}`);
    expect(raw.body).toMatchObject({ order_id: second.algoId, result: true });
    expect(simData(suite).planOrders.find((p) => String(p.algoId) === second.algoId)?.algoStatus).toBe('CANCELED');
  });

  it('reports a plan order the exchange does not know as result false with its code', async () => {
    const res = await api().post('/v1/plan-orders/cancel', { symbol: 'BTCUSDT', orderId: '1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ order_id: '1', result: false, err_code: '43001' });
  });
});

describe('cancel validation: 400 naming every failing field, nothing sent', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY }, { worker: false });
  const api = () => apiCaller(suite, KEY);
  const batch: Array<[string, string, string[]]> = [
    ['no symbol', '{"ids":["1"]}', ['symbol']],
    ['a symbol with a dash', '{"symbol":"BTC-USDT","ids":["1"]}', ['symbol']],
    ['neither ids nor cids', '{"symbol":"BTCUSDT"}', ['ids']],
    ['both ids and cids', '{"symbol":"BTCUSDT","ids":["1"],"cids":["a"]}', ['cids']],
    ['an empty ids list', '{"symbol":"BTCUSDT","ids":[]}', ['ids']],
    ['ids that is not a list', '{"symbol":"BTCUSDT","ids":"1"}', ['ids']],
    ['an ID with letters', '{"symbol":"BTCUSDT","ids":["1","12ab"]}', ['ids']],
    ['an ID with a fraction', '{"symbol":"BTCUSDT","ids":[1.5]}', ['ids']],
    ['an ID in exponent form', '{"symbol":"BTCUSDT","ids":[1E2]}', ['ids']],
    ['a negative ID', '{"symbol":"BTCUSDT","ids":[-1]}', ['ids']],
    ['an ID above 2^63-1', '{"symbol":"BTCUSDT","ids":[9223372036854775808]}', ['ids']],
    ['an empty cid', '{"symbol":"BTCUSDT","cids":[""]}', ['cids']],
    ['a cid longer than the exchange allows (40)', `{"symbol":"BTCUSDT","cids":["${'c'.repeat(41)}"]}`, ['cids']],
    ['an unknown field', '{"symbol":"BTCUSDT","ids":["1"],"side":"BUY"}', ['side']],
    ['several faults at once', '{"symbol":"","ids":[],"note":1}', ['symbol', 'ids', 'note']],
  ];

  it.each(batch)('cancel-batch with %s → 400', async (_name, body, fields) => {
    const before = simWeight(suite);
    expectFieldErrors(await api().post('/v1/orders/cancel-batch', body), fields);
    expect(simWeight(suite)).toEqual(before);
  });

  it('names the bad item of an ID list', async () => {
    const res = await api().post('/v1/orders/cancel-batch', '{"symbol":"BTCUSDT","ids":["1","12ab"]}');
    expect(res.body.errors).toEqual([{ path: 'ids', message: expect.stringContaining('ids.1 must be') }]);
  });

  const plan: Array<[string, string, string[]]> = [
    ['no orderId', '{"symbol":"BTCUSDT"}', ['orderId']],
    ['no symbol', '{"orderId":"1"}', ['symbol']],
    ['an orderId with letters', '{"symbol":"BTCUSDT","orderId":"x1"}', ['orderId']],
    ['an orderId of 0', '{"symbol":"BTCUSDT","orderId":0}', ['orderId']],
    ['an empty body object', '{}', ['symbol', 'orderId']],
  ];

  it.each(plan)('plan cancel with %s → 400', async (_name, body, fields) => {
    const before = simWeight(suite);
    expectFieldErrors(await api().post('/v1/plan-orders/cancel', body), fields);
    expect(simWeight(suite)).toEqual(before);
  });

  it('refuses a body that is not a JSON object, and malformed JSON', async () => {
    const before = simWeight(suite);
    expect((await api().post('/v1/orders/cancel-batch', '["1"]')).body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect((await api().post('/v1/plan-orders/cancel', '{"symbol":')).body).toMatchObject({ statusCode: 400, code: 'MALFORMED_JSON' });
    expect(simWeight(suite)).toEqual(before);
  });
});
