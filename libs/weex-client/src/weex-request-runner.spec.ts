import type { WeightBudget } from '#libs/weight-budget';
import type { WeexResponse } from './response-reader.js';
import { WeexApiError, type WeexErrorKind } from './weex-api.error.js';
import { WeexRequestRunner } from './weex-request-runner.js';
import type { WeexRequest, WeexTransport } from './weex-transport.js';

const OK: WeexResponse = { httpStatus: 200, data: [], simulator: true };

/** A transport that answers from a script (an error kind, or success) and a budget that records what it was asked. */
function setup(script: Array<WeexErrorKind | 'ok'>, budgetError?: Error, staleGrants = 0) {
  const log: string[] = [];
  const transport = {
    clockOffsetMs: 0 as number | undefined,
    syncClock: async () => {
      log.push('sync');
      transport.clockOffsetMs = 0;
      return 0;
    },
    request: async (req: WeexRequest) => {
      const next = script.shift() ?? 'ok';
      log.push(`send ${req.operation}`);
      if (next === 'ok') return OK;
      throw new WeexApiError(next, req.operation, `scripted ${next}`);
    },
  };
  const budget: WeightBudget = {
    acquire: async (op: string) => {
      if (budgetError) throw budgetError;
      log.push(`acquire ${op}`);
      const fresh = staleGrants-- <= 0;
      return { label: op, giveBack: async () => void log.push(`give back ${op}`), fresh: () => fresh };
    },
    pause: async (ms: number) => void log.push(`pause ${ms > 0}`),
    usage: async () => ({ ip: { limit: 1, used: 0, msBeforeReset: 0, pausedMs: 0 }, uid: { limit: 1, used: 0, msBeforeReset: 0, pausedMs: 0 } }),
  };
  const runner = new WeexRequestRunner(transport as unknown as WeexTransport, budget, { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 });
  return { runner, log, transport };
}

describe('WeexRequestRunner', () => {
  it('retries a read on transient, unavailable and rate-limited answers, taking weight before every attempt', async () => {
    const { runner, log } = setup(['transient', 'rate_limited', 'ok']);
    await expect(runner.call({ operation: 'openOrders' })).resolves.toBe(OK);
    expect(log).toEqual([
      'acquire openOrders',
      'send openOrders',
      'acquire openOrders',
      'send openOrders',
      'pause true',
      'acquire openOrders',
      'send openOrders',
    ]);
  });

  it('gives up on a read after maxAttempts, with the last error', async () => {
    const { runner } = setup(['unavailable', 'unavailable', 'transient', 'ok']);
    await expect(runner.call({ operation: 'allPositions' })).rejects.toMatchObject({ kind: 'transient' });
  });

  it.each(['cancelBatchOrders', 'cancelPlan', 'uploadAiLog'] as const)('never retries the write %s, but a 429 still pauses the budget', async (operation) => {
    const { runner, log } = setup(['rate_limited', 'ok']);
    await expect(runner.call({ operation })).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(log).toEqual([`acquire ${operation}`, `send ${operation}`, 'pause true']);
  });

  it.each(['auth', 'permission', 'invalid_request', 'uncertain'] as const)('does not retry a read that failed with %s', async (kind) => {
    const { runner, log } = setup([kind, 'ok']);
    await expect(runner.call({ operation: 'orderInfo' })).rejects.toMatchObject({ kind });
    expect(log.filter((l) => l.startsWith('send'))).toHaveLength(1);
  });

  it('measures the clock offset before the first signed call, paying the server-time weight', async () => {
    const { runner, log, transport } = setup(['ok']);
    transport.clockOffsetMs = undefined;
    await runner.call({ operation: 'openOrders' });
    expect(log).toEqual(['acquire serverTime', 'sync', 'acquire openOrders', 'send openOrders']);
  });

  it('takes the clock and the weight ahead of a call given them, which is then sent without waiting for the budget', async () => {
    const { runner, log, transport } = setup(['ok']);
    transport.clockOffsetMs = undefined;
    const weight = await runner.prepare('uploadAiLog');
    expect(log).toEqual(['acquire serverTime', 'sync', 'acquire uploadAiLog']);
    await runner.call({ operation: 'uploadAiLog', weight });
    expect(log.slice(3)).toEqual(['send uploadAiLog']);
  });

  it('gives back weight taken too long ago, and takes it anew before sending', async () => {
    const { runner, log } = setup(['ok']);
    const weight = { ...(await runner.prepare('uploadAiLog')), fresh: () => false };
    await runner.call({ operation: 'uploadAiLog', weight });
    expect(log).toEqual(['acquire uploadAiLog', 'give back uploadAiLog', 'acquire uploadAiLog', 'send uploadAiLog']);
  });

  it('takes weight anew when the take itself came back stale (a slow Redis), three times at most, then sends', async () => {
    const { runner, log } = setup(['ok'], undefined, 2);
    await runner.call({ operation: 'openOrders' });
    expect(log).toEqual(['acquire openOrders', 'give back openOrders', 'acquire openOrders', 'give back openOrders', 'acquire openOrders', 'send openOrders']);
    const slow = setup(['ok'], undefined, 10);
    await slow.runner.call({ operation: 'openOrders' });
    expect(slow.log.filter((line) => line.startsWith('acquire'))).toHaveLength(4);
    expect(slow.log.at(-1)).toBe('send openOrders');
  });

  it('never gives back the weight of an attempt it sent, however long ago a retry finds it was taken', async () => {
    const { runner, log } = setup(['transient', 'ok']);
    let sent = false;
    const grant = await runner.prepare('openOrders');
    const weight = { ...grant, fresh: () => !sent };
    const call = runner.call({ operation: 'openOrders', weight, onSend: () => void (sent = true) });
    await expect(call).resolves.toBe(OK);
    expect(log).toEqual(['acquire openOrders', 'send openOrders', 'acquire openOrders', 'send openOrders']);
  });

  it('gives back the weight it was handed when the call fails before sending it (a clock sync that fails)', async () => {
    const { runner, log, transport } = setup(['ok']);
    const weight = await runner.prepare('uploadAiLog');
    transport.clockOffsetMs = undefined;
    transport.syncClock = async () => {
      throw new Error('exchange clock unreachable');
    };
    await expect(runner.call({ operation: 'uploadAiLog', weight })).rejects.toThrow('exchange clock unreachable');
    expect(log).toEqual(['acquire uploadAiLog', 'acquire serverTime', 'give back uploadAiLog']);
  });

  it('reports a budget that cannot be reached as unavailable, having sent nothing', async () => {
    const { runner, log } = setup(['ok'], new Error('Redis connection is not ready'));
    await expect(runner.call({ operation: 'openOrders' })).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/nothing sent/) });
    expect(log).toEqual([]);
  });
});
