import { FULL_RUN, periodicBudget } from './check-budget.js';

describe('periodicBudget', () => {
  it('gives a run its interval’s share of a full run per minute', () => {
    expect(periodicBudget(10_000)).toEqual({ frontier: 8_334, sweep: 1_667, count: 16_667n });
    expect(periodicBudget(1_000)).toEqual({ frontier: 834, sweep: 167, count: 1_667n });
  });

  it('never more than a full run, however long the interval', () => {
    expect(periodicBudget(60_000)).toEqual(FULL_RUN);
    expect(periodicBudget(3_600_000)).toEqual(FULL_RUN);
  });
});
