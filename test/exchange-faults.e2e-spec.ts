import { type ApiAnswer, apiCaller, simData } from './support/exchange-api.js';
import { gatewaySuite, type GatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-exchange-faults';
const OPEN = ['NEW', 'PARTIALLY_FILLED'];

async function setFaults(suite: GatewaySuite, faults: object | undefined): Promise<void> {
  const init = faults ? { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) } : { method: 'DELETE' };
  const res = await fetch(`${suite.harness!.simulator.url}/__sim/faults`, init);
  if (!res.ok) throw new Error(`faults: HTTP ${res.status} ${await res.text()}`);
}

const faultCounts = (suite: GatewaySuite) => suite.harness!.simulator.state.stats().faults;

/** The one error shape, with the exchange's answer where it gave one, and no credential in it. */
function expectErrorBody(res: ApiAnswer, statusCode: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status: statusCode, code });
  expect(res.body).toMatchObject({ statusCode, message: expect.any(String), requestId: expect.any(String) });
  for (const secret of ['sandbox-api-secret', 'sandbox-passphrase', 'wrong-passphrase']) expect(res.text).not.toContain(secret);
}

describe('exchange failures become clear answers', () => {
  // Short windows: a 429 pauses the account's budget for the rest of a window (whole seconds in Redis), and a read
  // is tried 4 times, all within the 5 s the gateway waits for budget.
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, WEEX_WEIGHT_WINDOW_MS: '1000', WEEX_TIMEOUT_MS: '5000' }, { worker: false });
  const api = () => apiCaller(suite, KEY);
  // The gateway's first signed call measures the exchange's clock; each test should meet its fault in its own call.
  beforeAll(async () => {
    if (suite.harness) expect((await api().get('/v1/symbol-config')).status).toBe(200);
  });
  const openOrder = () => simData(suite).orders.find((o) => OPEN.includes(o.status))!;
  afterEach(async () => {
    if (suite.harness) await setFaults(suite, undefined);
  });

  it('500s from the exchange: 503 with the exchange code; a read is retried, a cancel is sent once', async () => {
    await setFaults(suite, { errorRate: 1 });
    const before = faultCounts(suite).error500;
    const read = await api().get('/v1/positions');
    expectErrorBody(read, 503, 'EXCHANGE_UNAVAILABLE');
    expect(read.body.exchange).toEqual({ operation: 'allPositions', code: '-1000', httpStatus: 500, message: expect.any(String) });
    expect(faultCounts(suite).error500 - before).toBe(4);
    const order = openOrder();
    const cancel = await api().post('/v1/orders/cancel-batch', { symbol: order.symbol, ids: [String(order.orderId)] });
    expectErrorBody(cancel, 503, 'EXCHANGE_UNAVAILABLE');
    expect(cancel.body.exchange).toMatchObject({ operation: 'cancelBatchOrders', code: '40015', httpStatus: 500 });
    expect(faultCounts(suite).error500 - before).toBe(5);
    expect(OPEN).toContain(order.status);
  });

  it('a 429 storm: 429 with Retry-After, for a read and for a cancel', async () => {
    await setFaults(suite, { rateLimitStorm: { durationMs: 60_000 } });
    const plan = simData(suite).planOrders.find((p) => p.algoStatus === 'UNTRIGGERED')!;
    const before = faultCounts(suite).rateLimited429;
    const read = await api().get('/v1/orders/open');
    const cancel = await api().post('/v1/plan-orders/cancel', { symbol: plan.symbol, orderId: String(plan.algoId) });
    for (const [res, operation] of [
      [read, 'openOrders'],
      [cancel, 'cancelPlan'],
    ] as const) {
      expectErrorBody(res, 429, 'RATE_LIMITED');
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(res.body.exchange).toMatchObject({ operation, httpStatus: 429 });
    }
    // The read was tried 4 times (each after the budget's pause), the cancel once.
    expect(faultCounts(suite).rateLimited429 - before).toBe(5);
    expect(plan.algoStatus).toBe('UNTRIGGERED');
    // Each 429 paused the account's budget for the rest of its window; the next tests start after that.
    await setFaults(suite, undefined);
    await waitFor('the budget pause to end', async () => ((await api().get('/v1/symbol-config')).status === 200 ? true : undefined));
  }, 20_000);

  it('the 521 HTML page of an IP not on the allowlist: 503', async () => {
    await setFaults(suite, { ipNotAllowed: true });
    const res = await api().get('/v1/trades');
    expectErrorBody(res, 503, 'EXCHANGE_UNAVAILABLE');
    expect(res.body.exchange).toMatchObject({ operation: 'userTrades', httpStatus: 521 });
  });

  it('a request the exchange itself rejects: 400 with its code and message; an unknown order 404', async () => {
    // A rule of the exchange's the gateway could not check first: the simulator refuses with WEEX's -1140.
    await setFaults(suite, { refuse: { failure: 'PARAMETER_INVALID', message: 'Parameter page is beyond the last page' }, paths: ['/capi/v3/order/history'] });
    const page = await api().get('/v1/orders/history?page=2000000');
    await setFaults(suite, undefined);
    expectErrorBody(page, 400, 'EXCHANGE_REJECTED_REQUEST');
    expect(page.body.exchange).toEqual({ operation: 'orderHistory', code: '-1140', httpStatus: 400, message: expect.stringContaining('page') });
    // An order the exchange does not know (WEEX -3200) is a 404, not a bad request.
    const unknown = await api().get('/v1/orders/1');
    expectErrorBody(unknown, 404, 'ORDER_NOT_FOUND');
    expect(unknown.body.exchange).toMatchObject({ operation: 'orderInfo', code: '-3200', message: expect.stringContaining('Order does not exist.') });
    // Word for word the example /docs-json gives for this 404.
    const doc: any = await (await fetch(`${suite.harness.apiUrl}/docs-json`)).json();
    const { requestId: _, ...documented } = doc.paths['/v1/orders/{orderId}'].get.responses['404'].content['application/json'].example;
    expect(documented).toEqual({ statusCode: 404, code: 'ORDER_NOT_FOUND', message: unknown.body.message });
  });

  it('a cancel sent without an answer: 504 saying the outcome is unknown; the next query tells', async () => {
    await setFaults(suite, { dropAfterProcessRate: 1, paths: ['/capi/v2/order/cancel_batch_orders'] });
    const order = openOrder();
    const id = String(order.orderId);
    const res = await api().post('/v1/orders/cancel-batch', { symbol: order.symbol, ids: [id] });
    expectErrorBody(res, 504, 'EXCHANGE_OUTCOME_UNKNOWN');
    expect(res.body.message).toMatch(/outcome is unknown/);
    await setFaults(suite, undefined);
    expect((await api().get(`/v1/orders/${id}`)).body).toMatchObject({ orderId: id, status: 'CANCELED' });
  });

  it('a read sent without an answer: 504, and nothing changed', async () => {
    // A dropped connection rather than a hang or a long latency: either would leave a socket of the simulator busy
    // past the end of the file, and its close would wait for the keep-alive timeout.
    await setFaults(suite, { dropAfterProcessRate: 1, paths: ['/capi/v3/account/symbolConfig'] });
    const res = await api().get('/v1/symbol-config');
    expectErrorBody(res, 504, 'EXCHANGE_TIMEOUT');
    expect(res.body).toMatchObject({ message: expect.stringMatching(/nothing changed/), exchange: { operation: 'symbolConfig' } });
  });
});

describe('credentials the exchange refuses', () => {
  const wrong = { WEEX_API_KEY: 'sandbox-api-key', WEEX_API_SECRET: 'sandbox-api-secret', WEEX_API_PASSPHRASE: 'wrong-passphrase' };
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, ...wrong }, { worker: false });
  const api = () => apiCaller(suite, KEY);

  it('answer 502 with the exchange code (the gateway’s credentials, not the caller, are at fault), for reads and cancels', async () => {
    const read = await api().get('/v1/positions');
    expectErrorBody(read, 502, 'EXCHANGE_AUTH_FAILED');
    expect(read.body.exchange).toMatchObject({ operation: 'allPositions', code: '-1049', httpStatus: 401 });
    const cancel = await api().post('/v1/orders/cancel-batch', { symbol: 'BTCUSDT', ids: ['1'] });
    expectErrorBody(cancel, 502, 'EXCHANGE_AUTH_FAILED');
    expect(cancel.body.exchange).toMatchObject({ operation: 'cancelBatchOrders', code: '40012' });
  });
});
