import { DAY_MS, oldestTime, runStart, windowsBetween } from './time-windows.js';

describe('windowsBetween', () => {
  it('covers the range with windows of at most the given length that share their boundaries', () => {
    expect(windowsBetween(0, 20, 7)).toEqual([
      { start: 0, end: 7 },
      { start: 7, end: 14 },
      { start: 14, end: 20 },
    ]);
  });

  it('gives one window for a range shorter than the maximum, and for an empty range', () => {
    expect(windowsBetween(5, 6, 7)).toEqual([{ start: 5, end: 6 }]);
    expect(windowsBetween(5, 5, 7)).toEqual([{ start: 5, end: 5 }]);
  });

  it('splits 90 days into 13 windows of 7 days', () => {
    const windows = windowsBetween(0, 90 * DAY_MS, 7 * DAY_MS);
    expect(windows).toHaveLength(13);
    expect(windows.every((w) => w.end - w.start <= 7 * DAY_MS)).toBe(true);
    expect(windows.at(-1)!.end).toBe(90 * DAY_MS);
  });
});

describe('runStart', () => {
  const now = 1_000 * DAY_MS;

  it('starts at the lookback on the first run', () => {
    expect(runStart(undefined, now, 90 * DAY_MS, 5_000)).toBe(now - 90 * DAY_MS);
  });

  it('starts a little before where the previous run got to', () => {
    expect(runStart(now - 60_000, now, 90 * DAY_MS, 5_000)).toBe(now - 65_000);
  });

  it('never reaches further back than the lookback, nor starts after now', () => {
    expect(runStart(now - 200 * DAY_MS, now, 90 * DAY_MS, 5_000)).toBe(now - 90 * DAY_MS);
    expect(runStart(now + 60_000, now, 90 * DAY_MS, 5_000)).toBe(now);
  });
});

describe('oldestTime', () => {
  it('is where a narrowing loop goes next', () => {
    expect(oldestTime([30, 10, 20], 30, 'op')).toBe(10);
  });

  it('refuses a page that gives no way forward rather than loop', () => {
    expect(() => oldestTime([Number.NaN], 30, 'op')).toThrow(/without times/);
    expect(() => oldestTime([31, 40], 30, 'op')).toThrow(/endTime/);
  });
});
