import { SimError } from '../errors.js';
import { WeightBudgets } from './weight-budgets.js';

describe('WeightBudgets', () => {
  let now = 1_000_000;
  const budgets = () => new WeightBudgets(() => now, { ipLimit: 10, uidLimit: 5, accounts: { u2: { uidLimit: 1 } } });

  it('charges up to the limit in a fixed window, refuses without charging, and starts afresh in the next', () => {
    const b = budgets();
    expect(b.tryCharge('ip', 'a', 6)).toBe(true);
    expect(b.tryCharge('ip', 'a', 4)).toBe(true);
    expect(b.tryCharge('ip', 'a', 1)).toBe(false);
    expect(b.usedNow('ip', 'a')).toBe(10);
    expect(b.tryCharge('ip', 'b', 10)).toBe(true);
    now += 10_000;
    expect(b.usedNow('ip', 'a')).toBe(0);
    expect(b.tryCharge('ip', 'a', 10)).toBe(true);
    expect(b.stats()).toEqual({
      byIp: { a: { used: 20, refused429: 1 }, b: { used: 10, refused429: 0 } },
      byUid: {},
      refused429: 1,
    });
  });

  it('applies per-account UID overrides and refunds a charge', () => {
    const b = budgets();
    expect(b.limitOf('uid', 'u1')).toBe(5);
    expect(b.tryCharge('uid', 'u2', 1)).toBe(true);
    expect(b.tryCharge('uid', 'u2', 1)).toBe(false);
    b.refund('uid', 'u2', 1);
    expect(b.usedNow('uid', 'u2')).toBe(0);
    expect(b.stats().byUid.u2).toEqual({ used: 0, refused429: 1 });
  });

  it('validates a new configuration, fills defaults, and clears the windows', () => {
    const b = budgets();
    b.tryCharge('ip', 'a', 3);
    expect(b.set({ uidLimit: 7 })).toEqual({ ipLimit: 500, uidLimit: 7, windowMs: 10_000, window: 'fixed', accounts: {} });
    expect(b.usedNow('ip', 'a')).toBe(0);
    expect(() => b.set({ windowMs: 0 })).toThrow(SimError);
    expect(() => b.set({ ipLimit: 1.5 })).toThrow(SimError);
    expect(() => b.set({ burst: 1 } as never)).toThrow(/unknown field/);
    expect(() => b.set({ window: 'rolling' } as never)).toThrow(/fixed' or 'sliding/);
    expect(b.reset()).toMatchObject({ ipLimit: 10, uidLimit: 5 });
  });

  it('on a sliding window refuses what a fixed one lets through: a span of a window across a boundary', () => {
    // 1 s before a boundary of the 10 s windows: the limit now, and again just after the boundary.
    now = 1_009_000;
    const fixed = budgets();
    const sliding = budgets();
    sliding.set({ ipLimit: 10, window: 'sliding' });
    for (const b of [fixed, sliding]) expect(b.tryCharge('ip', 'a', 10)).toBe(true);
    now += 2_000;
    expect(fixed.tryCharge('ip', 'a', 10)).toBe(true);
    expect(sliding.tryCharge('ip', 'a', 1)).toBe(false);
    // The first charge leaves the sliding window 10 s after it was made, not at a boundary.
    now += 7_999;
    expect(sliding.usedNow('ip', 'a')).toBe(10);
    now += 1;
    expect(sliding.usedNow('ip', 'a')).toBe(0);
    expect(sliding.tryCharge('ip', 'a', 10)).toBe(true);
  });

  it('on a sliding window takes a refund back from the latest charges', () => {
    now = 1_000_000;
    const b = new WeightBudgets(() => now, { uidLimit: 5, window: 'sliding', windowMs: 1_000 });
    expect(b.tryCharge('uid', 'u', 2)).toBe(true);
    now += 500;
    expect(b.tryCharge('uid', 'u', 3)).toBe(true);
    b.refund('uid', 'u', 3);
    now += 500;
    expect(b.usedNow('uid', 'u')).toBe(0);
    expect(b.tryCharge('uid', 'u', 5)).toBe(true);
  });
});
