import { KeyedSerializer } from './keyed-serializer.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSerializer', () => {
  it('runs one task at a time per key, in order, and other keys meanwhile', async () => {
    const serializer = new KeyedSerializer();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`${name} start`);
      await tick();
      events.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([serializer.run('a', task('a1')), serializer.run('a', task('a2')), serializer.run('b', task('b1'))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(events.indexOf('a1 end')).toBeLessThan(events.indexOf('a2 start'));
    expect(events.indexOf('b1 start')).toBeLessThan(events.indexOf('a1 end'));
  });

  it('goes on after a task fails, and forgets idle keys', async () => {
    const serializer = new KeyedSerializer();
    const failed = serializer.run('a', async () => {
      throw new Error('boom');
    });
    const next = serializer.run('a', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    await tick();
    expect(serializer.busy).toBe(0);
  });
});
