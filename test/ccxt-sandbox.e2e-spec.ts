import { ccxtWeex } from './support/ccxt-weex.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

// Test bodies are read loosely and checked by the assertions.
const json = (res: Response): Promise<any> => res.json();
const BTC = 'BTC/USDT:USDT';

/**
 * The competition loop as an agent written with ccxt runs it against the sandbox: load markets, place a limit, a
 * market and a take-profit order, log two of the decisions through the gateway, cancel the third order, and read
 * coverage once the evidence sync (every second here) has seen them.
 */
describe('ccxt against the sandbox: trade, log, cancel, coverage', () => {
  const suite = gatewaySuite({ EVIDENCE_SYNC_INTERVAL_MS: '1000' });
  const headers = () => ({ authorization: `Bearer ${suite.harness!.agentKey}`, 'content-type': 'application/json' });
  const get = async (path: string) => json(await fetch(`${suite.harness!.apiUrl}${path}`, { headers: headers() }));
  const postLog = async (orderId: string, explanation: string) => {
    const body = JSON.stringify({ orderId, stage: 'decision', model: 'ccxt-agent-1', input: { prompt: 'BTCUSDT' }, output: { orderId }, explanation });
    const res = await fetch(`${suite.harness!.apiUrl}/v1/ai-logs`, { method: 'POST', headers: headers(), body });
    expect(res.status).toBe(202);
    return (await json(res)).id as string;
  };

  it('loads markets, places three orders, logs two, cancels one, and coverage shows exactly that', async () => {
    const weex = ccxtWeex(suite.harness.simulator);
    const markets = await weex.loadMarkets();
    expect(Object.keys(markets)).toEqual(expect.arrayContaining(['BTC/USDT', BTC, 'ETH/USDT:USDT', 'SOL/USDT:USDT']));
    expect(markets[BTC]).toMatchObject({ contract: true, linear: true, settle: 'USDT', contractSize: 0.001, maker: 0.0002, taker: 0.0008 });
    expect(markets[BTC]!.limits.amount).toEqual({ min: 0.001, max: 500 });

    const from = Date.now();
    const long = async () => (await weex.fetchPositionsForSymbol(BTC)).find((p) => p.side === 'long')!.info;
    const positionBefore = await long();
    const balanceBefore = (await weex.fetchBalance({ type: 'swap' })).USDT.total!;
    const { last } = await weex.fetchTicker(BTC);
    const limit = await weex.createOrder(BTC, 'limit', 'buy', 0.01, Math.round(last! / 2));
    const market = await weex.createOrder(BTC, 'market', 'buy', 0.01);
    // A take-profit below the price sells at once: the plan order triggers and places an order of its own.
    const takeProfit = await weex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { takeProfitPrice: Math.round(last! * 0.9) });
    expect([limit.status, market.status, market.filled, takeProfit.status]).toEqual(['open', 'closed', 0.01, 'triggered']);
    const placedByPlan = String(takeProfit.info.actualOrderId);

    const logs = [await postLog(market.id!, 'Momentum: buy.'), await postLog(takeProfit.id!, 'Take profit 10 % below: sell.')];
    expect((await weex.cancelOrder(limit.id!, BTC)).status).toBe('canceled');

    for (const id of logs) await waitFor(`log ${id} uploaded`, async () => ((await get(`/v1/ai-logs/${id}`)).status === 'uploaded' ? true : undefined));
    const to = Date.now();
    // A whole sync run (all three streams) that started after the cancel and the uploads.
    await waitFor('an evidence sync after the cancel', async () => {
      const { streams } = await get('/v1/evidence/sync');
      const done = (s: { lastRunAt: string | null; lastSuccessAt: string | null }) =>
        s.lastRunAt !== null && Date.parse(s.lastRunAt) > to && s.lastSuccessAt !== null && s.lastSuccessAt >= s.lastRunAt;
      return streams.length === 3 && streams.every(done) ? true : undefined;
    });
    const view = await get(`/v1/compliance/coverage?from=${from}&to=${to}`);
    expect(view.orders).toEqual({ total: 3, withFills: 2, covered: 2, uncovered: 1, pending: 0, failed: 0, missing: 1 });
    expect(view.fills).toEqual({ total: 2, covered: 2, uncovered: 0 });
    expect(view.uncoveredOrders).toEqual([
      { orderId: limit.id, symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', status: 'CANCELED', time: expect.any(String), filled: false, reason: 'missing' },
    ]);
    expect(view.unmatchedLogsTotal).toBe(0);

    // The order the take-profit placed is covered by the log that names the plan order, and its evidence says so.
    const evidence = await get(`/v1/orders/${placedByPlan}/evidence`);
    expect(evidence).toMatchObject({
      coverage: 'covered',
      order: { orderId: placedByPlan, type: 'TAKE_PROFIT_MARKET', status: 'FILLED' },
      planOrder: { algoId: takeProfit.id, algoStatus: 'TRIGGERED' },
      planOrderLink: 'placed',
      logs: [{ id: logs[1], links: 'planOrder', orderId: takeProfit.id }],
    });
    // Positions and balance followed the fills: bought 0.01, then sold 0.01 by the take-profit.
    const trades = await weex.fetchMyTrades(BTC, from);
    expect(trades.map((t) => [t.order, t.side, t.amount])).toEqual([
      [market.id, 'buy', 0.01],
      [placedByPlan, 'sell', 0.01],
    ]);
    const positionAfter = await long();
    expect(positionAfter.size).toBe(positionBefore.size);
    expect(Number(positionAfter.cumOpenSize) - Number(positionBefore.cumOpenSize)).toBeCloseTo(0.01, 8);
    expect(Number(positionAfter.cumCloseSize) - Number(positionBefore.cumCloseSize)).toBeCloseTo(0.01, 8);
    const booked = trades.reduce((sum, t) => sum + Number(t.info.realizedPnl) - t.fee!.cost!, 0);
    expect((await weex.fetchBalance({ type: 'swap' })).USDT.total! - balanceBefore).toBeCloseTo(booked, 6);
  }, 90_000);

  it('serves the evidence of a waiting stop-loss by the algoId ccxt returned, the ID the README says to log', async () => {
    const weex = ccxtWeex(suite.harness.simulator);
    await weex.loadMarkets();
    const { last } = await weex.fetchTicker(BTC);
    const stopLoss = await weex.createStopLossOrder(BTC, 'market', 'sell', 0.01, undefined, Math.round(last! * 0.5));
    const log = await postLog(stopLoss.id!, 'Stop loss at half the price.');
    await waitFor(`log ${log} uploaded`, async () => ((await get(`/v1/ai-logs/${log}`)).status === 'uploaded' ? true : undefined));
    await waitFor('the plan order synced', async () => {
      const evidence = await get(`/v1/orders/${stopLoss.id}/evidence`);
      return evidence.planOrder ? evidence : undefined;
    });
    expect(await get(`/v1/orders/${stopLoss.id}/evidence`)).toMatchObject({
      orderId: stopLoss.id,
      coverage: 'covered',
      order: null,
      orderSyncedAt: null,
      fills: [],
      planOrder: { algoId: stopLoss.id, algoStatus: 'UNTRIGGERED' },
      planOrderLink: 'self',
      logs: [{ id: log, orderId: stopLoss.id, status: 'uploaded' }],
    });
  }, 60_000);
});
