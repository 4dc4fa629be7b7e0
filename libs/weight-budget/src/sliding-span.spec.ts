import fc from 'fast-check';
import { SlidingSpan } from './sliding-span.js';

describe('SlidingSpan', () => {
  // 10 s windows, a guard of 250 ms: buckets of 50 ms, 206 of them.
  const span = new SlidingSpan(10_000, 250);

  it('counts a window, the guard and one bucket more', () => {
    expect([span.bucketMs, span.buckets]).toEqual([50, 206]);
    const spent = new Map([
      [10, 5],
      [50, 7],
      [215, 1],
    ]);
    expect(span.sum(spent, 215)).toBe(13);
    expect(span.sum(spent, 216)).toBe(8);
    // Later buckets count too: a clock that stepped back still sees what it took.
    expect(span.sum(spent, 49)).toBe(13);
  });

  it('says how long until weight fits: until enough of the oldest buckets have left', () => {
    const spent = new Map([
      [10, 5],
      [50, 7],
    ]);
    const now = 60 * 50 + 30;
    expect(span.waitFor(spent, now, 8, 20)).toBe(0);
    // 5 must leave: bucket 10 leaves when bucket 216 starts.
    expect(span.waitFor(spent, now, 9, 20)).toBe(216 * 50 - now);
    expect(span.waitFor(spent, now, 20, 20)).toBe(256 * 50 - now);
    // How usage() reads when the oldest weight leaves: one more than the span holds.
    expect(span.waitFor(spent, now, 1, 12)).toBe(216 * 50 - now);
  });

  // The exchange counts a call up to the guard after its take: any of its windows, fixed or sliding, holds calls
  // taken within windowMs + guardMs.
  it('never lets calls taken within a window and its guard exceed the limit, and spends at least 97 % of it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.record({ after: fc.integer({ min: 0, max: 700 }), points: fc.integer({ min: 1, max: 10 }), giveBack: fc.boolean() }), {
          minLength: 1,
          maxLength: 400,
        }),
        (extra, asks) => {
          const limit = 10 + extra;
          const spent = new Map<number, number>();
          const taken: Array<{ at: number; points: number }> = [];
          let now = 1_000_000;
          for (const { after, points, giveBack } of asks) {
            now += after;
            if (span.waitFor(spent, now, points, limit) > 0) continue;
            const bucket = span.bucketOf(now);
            // Taken and given back within its bucket: nothing of it counts.
            if (giveBack) continue;
            spent.set(bucket, (spent.get(bucket) ?? 0) + points);
            taken.push({ at: now, points });
          }
          for (const { at } of taken) {
            const inWindow = taken.filter((t) => t.at >= at && t.at <= at + span.windowMs + span.guardMs);
            expect(inWindow.reduce((n, t) => n + t.points, 0)).toBeLessThanOrEqual(limit);
          }
        },
      ),
    );
    // A drain that always asks, one weight at a time, as soon as it fits: when may it take the 5,001st? After ten
    // spans of 206 buckets of 50 ms, where a sliding window of 10 s would allow it after ten windows.
    const spent = new Map<number, number>();
    let now = 0;
    for (let total = 0; total < 5_000;) {
      const wait = span.waitFor(spent, now, 1, 500);
      if (wait > 0) now += wait;
      else {
        spent.set(span.bucketOf(now), (spent.get(span.bucketOf(now)) ?? 0) + 1);
        total++;
        now += 1;
      }
    }
    now += span.waitFor(spent, now, 1, 500);
    expect(now).toBe(10 * 206 * 50);
    expect((10 * 10_000) / now).toBeGreaterThanOrEqual(0.97);
  });
});
