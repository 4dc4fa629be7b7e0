import { type ChildProcess, spawn } from 'node:child_process';

// Every process a test file starts, until it exits. A test that fails before it stops its processes would otherwise
// leave them running, and an open pipe to one keeps jest from exiting after the run.
const running = new Set<ChildProcess>();

/** `spawn` (with its typings), with the child SIGKILLed at the end of the test file if it is still running then. */
export const spawnChild = ((...args: Parameters<typeof spawn>) => {
  const child = spawn(...args);
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}) as typeof spawn;

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});
