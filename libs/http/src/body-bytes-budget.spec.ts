import { BodyBytesBudget } from './body-bytes-budget.js';

describe('BodyBytesBudget', () => {
  it('takes what fits at once, and lets the rest wait their turn in order', async () => {
    const budget = new BodyBytesBudget(100);
    expect(budget.tryTake(60)).toBe(true);
    expect(budget.tryTake(50)).toBe(false);
    const admitted: string[] = [];
    const big = budget.wait(50).then(() => admitted.push('50'));
    // Fits now, but a body waits before it: first come, first served.
    expect(budget.tryTake(10)).toBe(false);
    const small = budget.wait(10).then(() => admitted.push('10'));
    budget.release(60);
    await Promise.all([big, small]);
    expect(admitted).toEqual(['50', '10']);
  });

  it('lets a body larger than the whole budget through alone', async () => {
    const budget = new BodyBytesBudget(100);
    expect(budget.tryTake(30)).toBe(true);
    let admitted = false;
    const huge = budget.wait(1_000).then(() => (admitted = true));
    await Promise.resolve();
    expect(admitted).toBe(false);
    budget.release(30);
    await huge;
    expect(budget.tryTake(1)).toBe(false);
    budget.release(1_000);
    expect(budget.tryTake(100)).toBe(true);
  });
});
