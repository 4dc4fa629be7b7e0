import { FULL_RUN, periodicBudget } from './check-budget.js';

describe('periodicBudget', () => {
  it('gives a run the links per minute for the time since the last run, the sweep and count in proportion', () => {
    expect(periodicBudget(10_000, 50_000)).toEqual({ frontier: 8_334, sweep: 1_667, count: 16_667n });
    expect(periodicBudget(1_000, 50_000)).toEqual({ frontier: 834, sweep: 167, count: 1_667n });
    expect(periodicBudget(10_000, 100_000)).toEqual({ frontier: 16_667, sweep: 3_334, count: 33_334n });
  });

  it('never more than a full run, however long since the last, and never nothing', () => {
    expect(periodicBudget(60_000, 50_000)).toEqual(FULL_RUN);
    expect(periodicBudget(3_600_000, 50_000)).toEqual(FULL_RUN);
    expect(periodicBudget(1_000, 1_000_000_000)).toEqual(FULL_RUN);
    expect(periodicBudget(0, 50_000)).toEqual({ frontier: 1, sweep: 1, count: 1n });
    // A clock stepped back: the last run seems to be in the future.
    expect(periodicBudget(-5_000, 50_000)).toEqual({ frontier: 1, sweep: 1, count: 1n });
  });
});
