import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort, poll } from './processes.mjs';

/**
 * A redis-server of the scenario's own on a free port, without persistence, that it may SIGSTOP and SIGCONT without
 * touching the machine's shared Redis.
 */
export async function startPrivateRedis(cleanup) {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  cleanup.defer(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  });
  const url = `redis://127.0.0.1:${port}`;
  await poll('redis-server to answer', 10_000, async () => {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {}); // refused until the server listens: connect() rejects with it
    try {
      await client.connect();
      return (await client.ping()) === 'PONG' ? true : undefined;
    } catch {
      return undefined;
    } finally {
      client.disconnect();
    }
  });
  return { url, pid: child.pid, pause: () => child.kill('SIGSTOP'), resume: () => child.kill('SIGCONT') };
}
