import { apiCaller, expectFieldErrors, simData, simWeight, SIM_UID } from './support/exchange-api.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-exchange-budget';
const HOUR = 3_600_000;

describe('an API request does not wait long for the account’s weight budget', () => {
  // 15 UID weight per hour: one positions query (15) or one 10-weight query uses it up. Requests wait at most 1 s.
  const env = { AGENT_API_KEY: KEY, WEEX_UID_WEIGHT_LIMIT: '15', WEEX_WEIGHT_WINDOW_MS: String(HOUR), WEEX_TIMEOUT_MS: '1000' };
  const suite = gatewaySuite(env, { worker: false });
  const api = () => apiCaller(suite, KEY);
  const uidWeight = () => simWeight(suite).byUid[SIM_UID]?.used ?? 0;
  const retryAfter = (res: { headers: Headers }) => Number(res.headers.get('retry-after'));

  it('lets one of two concurrent 10-weight queries through and answers the other 429 with Retry-After, unsent', async () => {
    // The simulator's windows are aligned to the clock: start well inside one, so that it does not end during the file.
    await waitFor('a budget window with 30 s left', async () => (HOUR - (Date.now() % HOUR) > 30_000 ? true : undefined), 40_000);
    const before = uidWeight();
    const answers = await Promise.all([api().get('/v1/symbol-config'), api().get('/v1/algo-orders')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429]);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', message: expect.stringContaining('was not sent') });
    expect(retryAfter(limited)).toBeGreaterThan(30);
    // At most until the weight taken now leaves the budget's span: the window, the guard (250 ms), one bucket (18 s)
    // for rounding and one more.
    expect(retryAfter(limited)).toBeLessThanOrEqual((HOUR + 250 + 2 * 18_000) / 1000);
    expect(uidWeight() - before).toBe(10);
  }, 50_000);

  it('answers at once, without waiting, when the budget cannot free up in time', async () => {
    const before = simWeight(suite);
    const started = Date.now();
    const res = await api().get('/v1/positions');
    expect(Date.now() - started).toBeLessThan(900);
    expect(res.status).toBe(429);
    expect(retryAfter(res)).toBeGreaterThan(30);
    expect(simWeight(suite)).toEqual(before);
  });

  it('refuses a cancel the same way, and the order stays open', async () => {
    const order = simData(suite).orders.find((o) => o.status === 'NEW')!;
    const before = simWeight(suite);
    const res = await api().post('/v1/orders/cancel-batch', { symbol: order.symbol, ids: [String(order.orderId)] });
    expect(res.status).toBe(429);
    expect(res.body.message).toContain('cancelBatchOrders was not sent');
    expect(order.status).toBe('NEW');
    expect(simWeight(suite)).toEqual(before);
  });

  it('still checks the request first: a bad one gets 400, not 429', async () => {
    expectFieldErrors(await api().get('/v1/income?limit=0'), ['limit']);
  });
});
