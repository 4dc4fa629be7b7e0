import { SimFailure } from '../errors.js';
import { SimError } from '../errors.js';
import { FaultSwitchboard } from './fault-switchboard.js';

describe('FaultSwitchboard', () => {
  let now = 5_000;
  const decisions = (board: FaultSwitchboard, n: number) =>
    Array.from({ length: n }, () => board.decide('/capi/v3/market/time', undefined).answer ?? 'through');

  it('replays the same decisions from the same seed, whatever was switched in between', () => {
    const board = new FaultSwitchboard(() => now, 7);
    board.set({ errorRate: 0.5 });
    const first = decisions(board, 30);
    expect(new Set(first)).toEqual(new Set(['error500', 'through']));
    board.set({ errorRate: 0.5, seed: 7 });
    expect(decisions(board, 30)).toEqual(first);
    const fresh = () => decisions(new FaultSwitchboard(() => now, 7), 30);
    expect(fresh()).toEqual(fresh());
  });

  it('picks the account rule over the global one, honours paths, and ends a timed storm', () => {
    const board = new FaultSwitchboard(() => now);
    const u1 = { ipNotAllowed: true, paths: ['/capi/v3/*'] };
    board.set({ rateLimitStorm: { durationMs: 1_000 }, accounts: { u1 } });
    expect(board.decide('/capi/v3/order', 'u2').answer).toBe('rateLimited429');
    expect(board.decide('/capi/v3/order', 'u1').answer).toBe('ipNotAllowed521');
    expect(board.decide('/capi/v2/order', 'u1').answer).toBeUndefined();
    now += 1_000;
    expect(board.decide('/capi/v3/order', 'u2').answer).toBeUndefined();
  });

  it('refuses invalid configurations and shows the seed in use', () => {
    const board = new FaultSwitchboard(() => now);
    expect(() => board.set({ errorRate: 1.5 })).toThrow(SimError);
    expect(() => board.set({ latencyMs: -1 })).toThrow(SimError);
    expect(() => board.set({ paths: ['no-slash'] })).toThrow(SimError);
    expect(() => board.set({ accounts: { u1: { seed: 1 } as never } })).toThrow(/unknown field/);
    expect(board.set({ dropAfterProcessRate: 1 })).toEqual({ dropAfterProcessRate: 1, seed: 1 });
    expect(board.decide('/x', undefined)).toEqual({ latencyMs: 0, dropAfterProcess: true });
    expect(board.clear()).toEqual({ seed: 1 });
  });

  it('refuses with a failure of the table, and refuses to be set with one it does not know', () => {
    const board = new FaultSwitchboard(() => now);
    expect(() => board.set({ refuse: { failure: 'NO_SUCH' as never, message: 'x' } })).toThrow(/refuse.failure must be one of/);
    board.set({ refuse: { failure: SimFailure.ParameterInvalid, message: 'beyond the last page' }, paths: ['/capi/v3/order/history'] });
    expect(board.decide('/capi/v3/order/history', 'u1')).toMatchObject({ answer: 'refused', refusal: { failure: 'PARAMETER_INVALID' } });
    expect(board.decide('/capi/v3/order', 'u1').answer).toBeUndefined();
  });

  it('answers without a code, and skews the signature clock, for the paths and accounts given', () => {
    const board = new FaultSwitchboard(() => now);
    expect(() => board.set({ answerWithoutCode: 1 as never })).toThrow(/answerWithoutCode/);
    expect(() => board.set({ clockSkewMs: 1.5 })).toThrow(/clockSkewMs/);
    board.set({ answerWithoutCode: '{}', paths: ['/capi/v3/order/uploadAiLog'], accounts: { u1: { clockSkewMs: -60_000 } } });
    expect(board.decide('/capi/v3/order/uploadAiLog', 'u2')).toMatchObject({ answer: 'answeredWithoutCode', body: '{}' });
    expect(board.decide('/capi/v3/market/time', 'u2').answer).toBeUndefined();
    expect([board.clockSkewMs('/capi/v3/order', 'u1'), board.clockSkewMs('/capi/v3/order', 'u2')]).toEqual([-60_000, 0]);
  });
});
