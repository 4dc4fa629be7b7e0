import { once } from 'node:events';
import { spawnChild } from './child-processes.js';

// The built CLI behind `npm run audit:verify` (`npm test` builds first).
const MAIN = new URL('../../dist/apps/audit-verify/src/main.js', import.meta.url).pathname;

/** Runs `audit:verify` on a file; returns its exit code and output. */
export async function auditVerify(...args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawnChild(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  const [code] = await once(child, 'exit');
  return { code: code as number | null, out };
}
