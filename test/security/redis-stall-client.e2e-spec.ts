import { RedisStalledError, WatchedRedis } from '#libs/redis';
import { PrivateRedis } from '../support/private-redis.js';
import { waitFor } from '../support/wait-for.js';

const TIMEOUT_MS = 200;

/** WatchedRedis against a Redis of the test's own, which it stops (SIGSTOP) and lets go on. */
describe('WatchedRedis', () => {
  let server: PrivateRedis;
  let redis: WatchedRedis;

  beforeAll(async () => {
    server = await PrivateRedis.start();
    redis = new WatchedRedis(server.url, 'test', TIMEOUT_MS, {});
    await redis.ping();
  });

  afterAll(async () => {
    server?.thaw();
    redis?.disconnect();
    await server?.stop();
  });

  it('gives up on a command a stalled Redis leaves unanswered, refuses the next ones at once, and serves again once Redis answers', async () => {
    await redis.set('k', 'v');
    server.freeze();
    try {
      await expect(redis.get('k')).rejects.toThrow(`Redis did not answer within ${TIMEOUT_MS} ms`);
      expect(redis.available).toBe(false);
      await expect(redis.get('k')).rejects.toBeInstanceOf(RedisStalledError);
    } finally {
      server.thaw();
    }
    await waitFor('the connection to be available again', async () => (redis.available ? true : undefined));
    expect(await redis.get('k')).toBe('v');
  });

  it("waits for a new connection's handshake as long as connecting takes: a slow start is not a stall", async () => {
    server.freeze();
    const late = new WatchedRedis(server.url, 'late', TIMEOUT_MS, {});
    const errors: string[] = [];
    late.on('error', (error: Error) => errors.push(error.message));
    try {
      await waitFor('the TCP connection, whose handshake a stopped Redis leaves unanswered', async () => (late.status === 'connect' ? true : undefined));
      busyFor(3 * TIMEOUT_MS);
      // Two turns of the event loop: the timeout's timer, then what it deferred, have run.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      server.thaw();
      expect(await late.ping()).toBe('PONG');
      expect(errors).toEqual([]);
      expect(late.available).toBe(true);
    } finally {
      server.thaw();
      late.disconnect();
    }
  });

  it('does not give up on an answer that arrived while this process was too busy to read it', async () => {
    const answer = redis.echo('late but there');
    // Busy for longer than the timeout: the timer is due before the socket is read again.
    busyFor(3 * TIMEOUT_MS);
    expect(await answer).toBe('late but there');
    expect(redis.available).toBe(true);
  });
});

/** Keeps this process's one thread busy, as a long garbage collection or a starved CPU would. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}
