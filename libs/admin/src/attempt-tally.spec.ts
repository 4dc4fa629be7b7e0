import type { AttemptsSince, LogStatsRepository, TallyMark } from '#libs/ai-log';
import { AttemptTally } from './attempt-tally.js';

const group = (count: number, outcome = 'uploaded') => ({
  outcome,
  httpStatus: '200',
  exchangeCode: '00000',
  count,
  sumMs: String(80 * count),
  buckets: Array(10).fill(count),
});

/** The groups of these receipts, by outcome, in the order they first appear. */
function outcomes(receipts: string[]) {
  const counts = new Map<string, number>();
  for (const hash of receipts) counts.set(hash.replace(/\d+$/, ''), (counts.get(hash.replace(/\d+$/, '')) ?? 0) + 1);
  return [...counts].map(([outcome, count]) => group(count, outcome));
}

/**
 * One account's receipt chain as attemptsSince sees it (`chain()[i]` is the hash of receipt seq i + 1, its letters the
 * attempt's outcome). Each call answers when `release` is called, and is recorded in `calls`.
 */
function repository(chain: () => string[]) {
  const waiting: Array<() => void> = [];
  const calls: Array<{ from: number; step: number }> = [];
  const stats = {
    attemptsSince: (after: ReadonlyMap<string, TallyMark>, step: number) =>
      new Promise<AttemptsSince>((resolve) => {
        const mark = after.get('a');
        const from = Number(mark?.seq ?? 0);
        calls.push({ from, step });
        waiting.push(() => {
          const hashes = chain();
          const upto = Math.min(hashes.length, from + step);
          resolve({
            marks: new Map([['a', { seq: String(upto), hash: hashes[upto - 1] ?? '' }]]),
            groups: outcomes(hashes.slice(from, upto)),
            rewound: mark !== undefined && (from > hashes.length || (from > 0 && (hashes[from - 1] ?? '') !== mark.hash)),
            more: upto < hashes.length,
          });
        });
      }),
  } as unknown as LogStatsRepository;
  const release = () => waiting.splice(0).forEach((answer) => answer());
  /** Answers every call until the refresh settles. */
  const settle = async (refresh: Promise<void>) => {
    let done = false;
    void refresh.finally(() => (done = true));
    while (!done) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await refresh;
  };
  return { stats, release, settle, calls };
}

const hashes = (n: number, outcome = 'uploaded') => Array.from({ length: n }, (_, i) => `${outcome}${i + 1}`);

describe('AttemptTally', () => {
  it('adds the attempts since the last refresh', async () => {
    let chain = hashes(10);
    const { stats, settle } = repository(() => chain);
    const tally = new AttemptTally(stats);
    await settle(tally.refresh());
    chain = hashes(15);
    await settle(tally.refresh());
    expect(tally.answers()).toEqual([group(15)]);
    expect(tally.histograms()).toEqual([{ outcome: 'uploaded', buckets: Array(10).fill(15), count: 15, sumMs: 1200 }]);
  });

  it('counts once when a refresh is asked for while one runs', async () => {
    const { stats, release } = repository(() => hashes(10));
    const tally = new AttemptTally(stats);
    const both = Promise.all([tally.refresh(), tally.refresh()]);
    release();
    await both;
    expect(tally.answers()).toEqual([group(10)]);
  });

  it('counts a long history a step at a time, in one refresh', async () => {
    const length = Math.floor(2.5 * AttemptTally.STEP);
    const { stats, settle, calls } = repository(() => hashes(length));
    const tally = new AttemptTally(stats);
    await settle(tally.refresh());
    expect(calls).toEqual([0, 1, 2].map((i) => ({ from: i * AttemptTally.STEP, step: AttemptTally.STEP })));
    expect(tally.answers().reduce((n, g) => n + g.count, 0)).toBe(length);
  });

  it('counts again from the start when a head is behind what it counted', async () => {
    let chain = hashes(10);
    const { stats, settle } = repository(() => chain);
    const tally = new AttemptTally(stats);
    await settle(tally.refresh());
    chain = hashes(4);
    await settle(tally.refresh());
    expect(tally.answers()).toEqual([group(4)]);
  });

  it('counts again from the start when the receipt at its mark is another one, the head past it', async () => {
    let chain = hashes(10);
    const { stats, settle } = repository(() => chain);
    const tally = new AttemptTally(stats);
    await settle(tally.refresh());
    // Restored from a backup of 6 receipts, then 9 other attempts recorded: the mark at 10 has another receipt.
    chain = [...hashes(6), ...hashes(15, 'failed').slice(6)];
    await settle(tally.refresh());
    expect(tally.answers()).toEqual([group(6), group(9, 'failed')]);
  });

  it('fails a refresh, rather than loop, when the chains change under it twice', async () => {
    let calls = 0;
    const stats = {
      attemptsSince: async () => ({ marks: new Map([['a', { seq: String(++calls), hash: 'x' }]]), groups: [group(1)], rewound: calls > 1, more: true }),
    } as unknown as LogStatsRepository;
    const tally = new AttemptTally(stats);
    await expect(tally.refresh()).rejects.toThrow('the receipt chains changed while their attempts were counted');
    expect(calls).toBe(3);
    expect(tally.answers()).toEqual([]);
  });
});
