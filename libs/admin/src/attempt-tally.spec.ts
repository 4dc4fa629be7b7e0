import type { AttemptsSince, LogStatsRepository } from '#libs/ai-log';
import { AttemptTally } from './attempt-tally.js';

const group = (count: number) => ({
  outcome: 'uploaded',
  httpStatus: '200',
  exchangeCode: '00000',
  count,
  sumMs: String(80 * count),
  buckets: Array(10).fill(count),
});

/** A repository whose attempts are `head` attempts, one account; each call answers when `release` is called. */
function repository(head: () => number) {
  const calls: Array<() => void> = [];
  const stats = {
    attemptsSince: (after: ReadonlyMap<string, string>) =>
      new Promise<AttemptsSince>((resolve) => {
        const from = Number(after.get('a') ?? 0);
        calls.push(() => resolve({ heads: new Map([['a', String(head())]]), groups: head() > from ? [group(head() - from)] : [] }));
      }),
  } as unknown as LogStatsRepository;
  return { stats, release: () => calls.splice(0).forEach((answer) => answer()) };
}

describe('AttemptTally', () => {
  it('adds the attempts since the last refresh', async () => {
    let head = 10;
    const { stats, release } = repository(() => head);
    const tally = new AttemptTally(stats);
    const refreshed = tally.refresh();
    release();
    await refreshed;
    head = 15;
    const again = tally.refresh();
    release();
    await again;
    expect(tally.answers()).toEqual([group(15)]);
    expect(tally.histograms()).toEqual([{ outcome: 'uploaded', buckets: Array(10).fill(15), count: 15, sumMs: 1200 }]);
  });

  it('counts once when a refresh is asked for while one runs', async () => {
    const { stats, release } = repository(() => 10);
    const tally = new AttemptTally(stats);
    const both = Promise.all([tally.refresh(), tally.refresh()]);
    release();
    await both;
    expect(tally.answers()).toEqual([group(10)]);
  });

  it('counts again from the start when a head is behind what it counted', async () => {
    let head = 10;
    const { stats, release } = repository(() => head);
    const tally = new AttemptTally(stats);
    const first = tally.refresh();
    release();
    await first;
    head = 4;
    const second = tally.refresh();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await second;
    expect(tally.answers()).toEqual([group(4)]);
  });
});
