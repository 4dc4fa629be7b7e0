import { GroupCommit } from './group-commit.js';

/** Lets queued microtasks (the first write's start) run. */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes a lone submission at once, and what arrives meanwhile together, each caller getting its own results', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const commit = new GroupCommit<number, string>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await gate;
      return items.map((i) => `r${i}`);
    });
    const first = commit.submit([1]);
    await tick();
    const second = commit.submit([2, 3]);
    const third = commit.submit([4]);
    release();
    expect(await first).toEqual(['r1']);
    expect(await second).toEqual(['r2', 'r3']);
    expect(await third).toEqual(['r4']);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps batches within maxItems without splitting a submission, and fails only the batch whose write failed', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const commit = new GroupCommit<number, number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await gate;
      if (items.includes(5)) throw new Error('disk full');
      return items;
    }, 3);
    const results = [commit.submit([0])];
    await tick();
    results.push(commit.submit([1, 2]), commit.submit([3, 4]), commit.submit([5]), commit.submit([6, 7, 8, 9]));
    release();
    const settled = await Promise.allSettled(results);
    expect(writes).toEqual([[0], [1, 2], [3, 4, 5], [6, 7, 8, 9]]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
  });

  it('writes submissions made in the same tick together (callers woken by one commit join one write)', async () => {
    const writes: number[][] = [];
    const commit = new GroupCommit<number, number>(async (items) => (writes.push(items), items));
    await Promise.all([commit.submit([1]), commit.submit([2]), commit.submit([3])]);
    expect(writes).toEqual([[1, 2, 3]]);
  });

  it('runs up to maxInFlight writes at once, and groups what arrives while all are busy into the next', async () => {
    const writes: number[][] = [];
    const gates: Array<() => void> = [];
    const commit = new GroupCommit<number, number>(
      async (items) => {
        writes.push(items);
        await new Promise<void>((resolve) => gates.push(resolve));
        return items;
      },
      500,
      2,
    );
    const results = [commit.submit([1])];
    await tick();
    results.push(commit.submit([2]));
    await tick();
    results.push(commit.submit([3]), commit.submit([4]));
    await tick();
    expect(writes).toEqual([[1], [2]]);
    gates[1]();
    await tick();
    expect(writes).toEqual([[1], [2], [3, 4]]);
    gates[0]();
    gates[2]();
    expect(await Promise.all(results)).toEqual([[1], [2], [3], [4]]);
  });

  it('counts maxItems by weight when given one', async () => {
    const writes: string[][] = [];
    const commit = new GroupCommit<string, string>(async (items) => (writes.push(items), items), 5, 1, { weigh: (item) => item.length });
    await Promise.all([commit.submit(['a']), commit.submit(['bbb']), commit.submit(['cc']), commit.submit(['dddddd'])]);
    expect(writes).toEqual([['a', 'bbb'], ['cc'], ['dddddd']]);
  });

  it('writes the submissions again in halves when `isolate` blames one, so that only its caller fails', async () => {
    const writes: number[][] = [];
    const poisoned = new Error('22P05 data');
    const commit = new GroupCommit<number, number>(
      async (items) => {
        writes.push(items);
        if (items.includes(13)) throw poisoned;
        return items.map((i) => i * 10);
      },
      500,
      1,
      { isolate: (error) => error === poisoned },
    );
    const submissions = [[1], [2, 3], [13], [4], [5], [6, 7], [8], [9]];
    const settled = await Promise.allSettled(submissions.map((items) => commit.submit(items)));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : 'failed'))).toEqual([[10], [20, 30], 'failed', [40], [50], [60, 70], [80], [90]]);
    // The whole group, then halves down to the culprit: 1 + 2·log2(8) writes, each good submission committed once.
    expect(writes).toEqual([[1, 2, 3, 13, 4, 5, 6, 7, 8, 9], [1, 2, 3, 13, 4], [1, 2, 3], [13, 4], [13], [4], [5, 6, 7, 8, 9]]);
  });

  it('fails every caller of a write whose error `isolate` does not blame on one submission', async () => {
    let writes = 0;
    const commit = new GroupCommit<number, number>(
      async () => {
        writes++;
        throw new Error('connection lost');
      },
      500,
      1,
      { isolate: () => false },
    );
    const settled = await Promise.allSettled([commit.submit([1]), commit.submit([2]), commit.submit([3])]);
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    expect(writes).toBe(1);
  });
});
