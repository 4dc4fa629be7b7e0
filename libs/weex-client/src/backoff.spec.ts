import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1_000 };

  it.each([
    [1, 50, 100],
    [2, 100, 200],
    [3, 200, 400],
    [4, 400, 800],
    [5, 500, 1_000],
    [30, 500, 1_000],
  ])('after attempt %i lies between %i and %i ms', (attempt, low, high) => {
    expect(backoffDelay(attempt, options, () => 0)).toBe(low);
    expect(backoffDelay(attempt, options, () => 1)).toBe(high);
    const jittered = backoffDelay(attempt, options);
    expect(jittered).toBeGreaterThanOrEqual(low);
    expect(jittered).toBeLessThanOrEqual(high);
  });
});
