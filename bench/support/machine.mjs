import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { serviceVersions } from './services.mjs';

/** What the figures were measured on. */
export async function describeMachine() {
  const cpus = os.cpus();
  const { postgres, redis } = await serviceVersions();
  return {
    cpu: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    postgres,
    redis,
    load: os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(', '),
    code: codeState(),
  };
}

/** The commit measured, and whether the working tree differed from it (the build compiles the tree, not the commit). */
function codeState() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: new URL('../..', import.meta.url).pathname, encoding: 'utf8' }).trim();
    const changed = git('status', '--porcelain', '--', 'apps', 'libs', 'prisma').split('\n').filter(Boolean).length;
    return `commit ${git('rev-parse', '--short', 'HEAD')}${changed ? ` plus ${changed} uncommitted change(s) under apps/, libs/, prisma/` : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
