/**
 * Test-only failpoints (`GATEWAY_FAILPOINTS`), after etcd's gofail and TiKV's fail-rs: named steps of a request at
 * which the process SIGKILLs itself, so that a crash test can stop it at an exact point. Never set in production; when
 * unset, each point costs one boolean test.
 */
export const FAILPOINTS = ['before-commit', 'after-commit'] as const;
export type Failpoint = (typeof FAILPOINTS)[number];

/** Dies at once, as a SIGKILL from outside would leave it: no handler runs, nothing is flushed or answered. */
export function crashHere(): void {
  process.kill(process.pid, 'SIGKILL');
}
