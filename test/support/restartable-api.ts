import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { waitFor } from './wait-for.js';
import { spawnChild } from './child-processes.js';

// The built API (`npm test` builds first), run as a process of its own so that a test can kill it.
const MAIN = new URL('../../dist/apps/api/src/main.js', import.meta.url).pathname;

/** A port nothing listens on now, for an API that is restarted on the same address. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** An API process (`npm run start:api`'s entry point) on 127.0.0.1:`port`, so that it can be killed and restarted at one address; its output is kept for failure messages. */
export class RestartableApi {
  private output = '';
  readonly exited: Promise<unknown>;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.stdout!.on('data', (chunk) => (this.output += chunk));
    child.stderr!.on('data', (chunk) => (this.output += chunk));
    this.exited = once(child, 'exit');
  }

  /** Starts the API and resolves once it answers `/health/live`. */
  static async start(port: number, env: Record<string, string>): Promise<RestartableApi> {
    const child = spawnChild(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const api = new RestartableApi(child, `http://127.0.0.1:${port}`);
    await waitFor(
      `the API on port ${port} to answer`,
      async () => {
        if (!api.running) throw new Error(`the API exited:\n${api.output}`);
        return (await fetch(`${api.url}/health/live`).catch(() => undefined))?.ok || undefined;
      },
      60_000,
    );
    return api;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How the process ended: its exit code, or the signal that killed it. */
  get end(): number | string | null {
    return this.child.exitCode ?? this.child.signalCode;
  }

  get log(): string {
    return this.output;
  }

  /** Sends the signal (unless the process has ended) and waits for it to exit. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    if (this.running) this.child.kill(signal);
    await this.exited;
  }
}
