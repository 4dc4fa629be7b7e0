import { createMemoryWeightBudget, type WeightBudget } from '#libs/weight-budget';
import { waitFor } from './support/wait-for.js';
import { WeexClientSim } from './support/weex-client-sim.js';

const WINDOW_MS = 1_000;
let h: WeexClientSim;

/** A client whose in-memory budget allows `limit` weight per IP and per UID per window, aligned to its clock. */
const budgetOf =
  (limit: number) =>
  (now: () => number): WeightBudget =>
    createMemoryWeightBudget({ ip: { limit, windowMs: WINDOW_MS }, uid: { limit, windowMs: WINDOW_MS }, now });

beforeAll(async () => {
  h = await WeexClientSim.start();
});
afterAll(async () => h?.close());
beforeEach(async () => h.reset());

describe('WeexClient: retries and weight budgets against the simulator', () => {
  it('retries a read through a short burst of 500s and succeeds', async () => {
    const client = h.client({ retry: { maxAttempts: 6, baseDelayMs: 200, maxDelayMs: 400 } });
    await h.control('PUT', '/__sim/faults', { errorRate: 1, paths: ['/capi/v3/openOrders'] });
    const read = client.openOrders();
    await waitFor('a first 500', async () => ((await h.stats()).faults.error500 > 0 ? true : undefined));
    await h.control('DELETE', '/__sim/faults');
    await expect(read).resolves.toEqual(expect.arrayContaining([expect.objectContaining({ orderId: expect.stringMatching(/^\d+$/) })]));
  });

  it('slows down through a 429 storm on reads instead of failing the caller', async () => {
    const client = h.client({ budget: budgetOf(500), retry: { maxAttempts: 8, baseDelayMs: 100, maxDelayMs: 1_000 } });
    await client.serverTime();
    const stormEnds = Date.now() + WINDOW_MS;
    await h.control('PUT', '/__sim/faults', { rateLimitStorm: { durationMs: WINDOW_MS } });
    const positions = await client.allPositions();
    expect(Date.now()).toBeGreaterThanOrEqual(stormEnds);
    expect(positions.length).toBeGreaterThan(0);
    const { faults } = await h.stats();
    expect(faults.rateLimited429).toBeGreaterThan(0);
    // Each 429 paused the budget to the end of the window: a few attempts over the whole storm, not a hammering.
    expect(faults.rateLimited429).toBeLessThanOrEqual(3);
  });

  it('answers a timestamp rejection with one clock resync and a re-signed resend, even for a write', async () => {
    let skewMs = 0;
    const client = h.client({ now: () => Date.now() + skewMs });
    await client.allPositions();
    skewMs = 60_000;
    const rejectedBefore = (await h.stats()).rejectionsByCode['40008'] ?? 0;
    await expect(client.cancelPlan({ symbol: 'BTCUSDT', orderId: '1' })).resolves.toMatchObject({ result: false });
    expect((await h.stats()).rejectionsByCode['40008']).toBe(rejectedBefore + 1);
    expect(client.transport.clockOffsetMs).toBeLessThan(-50_000);
  });

  it('with the budget of the exchange, fires three windows of weight without a single 429', async () => {
    const limit = 30;
    const client = h.client({ budget: budgetOf(limit), retry: { maxAttempts: 1 } });
    const [open] = await h.client().openOrders();
    await h.control('PUT', '/__sim/budgets', { ipLimit: limit, uidLimit: limit, windowMs: WINDOW_MS });
    // UID weight 10 × 3 + 10 × 3 + 6 × 5 = 90: three windows' worth.
    const calls = [
      ...Array.from({ length: 10 }, () => client.orderInfo({ orderId: open.orderId })),
      ...Array.from({ length: 10 }, () => client.openOrders()),
      ...Array.from({ length: 6 }, () => client.userTrades()),
    ];
    const results = await Promise.allSettled(calls);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const { weight } = await h.stats();
    expect(weight.refused429).toBe(0);
    expect(weight.byUid['8000000001'].used).toBeGreaterThanOrEqual(90);
  }, 15_000);
});
