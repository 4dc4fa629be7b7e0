import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { spawnChild } from './child-processes.js';

// The built worker (`npm test` builds first), run as a process of its own so that a test can kill it.
const MAIN = new URL('../../dist/apps/worker/src/main.js', import.meta.url).pathname;
/** The built API (`npm run start:api`), for WorkerProcess.start's `main`. */
export const API_MAIN = new URL('../../dist/apps/api/src/main.js', import.meta.url).pathname;

/** An upload worker process (or with `main`, another app) with the given environment; its output is kept for failure messages. */
export class WorkerProcess {
  private output = '';

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk) => (this.output += chunk));
    child.stderr!.on('data', (chunk) => (this.output += chunk));
  }

  static start(env: Record<string, string>, main = MAIN): WorkerProcess {
    return new WorkerProcess(spawnChild(process.execPath, [main], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  get log(): string {
    return this.output;
  }

  /** Sends the signal and waits for the process to exit; returns its exit code (null when killed by a signal). */
  async stop(signal: NodeJS.Signals): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.child.kill(signal);
    const [code] = await once(this.child, 'exit');
    return code as number | null;
  }
}
