import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { spawnChild } from './child-processes.js';

// Docker cannot run on the build machines, so this replays a Dockerfile the way `docker build` runs it: each stage
// gets a root directory of its own, and every RUN and the final CMD run chrooted into it, in a mount namespace of
// their own (`unshare --mount`), with the machine's /usr (its Node stands in for the base image's), /etc, /dev, /proc
// and /sys bound in. Absolute paths such as /app and /data are therefore the stage's own, as in a container; COPY
// reads the build context (the working tree's files minus .dockerignore) or, with --from, another stage's root.
// The network is the machine's, so PostgreSQL and Redis on 127.0.0.1 are reachable. Needs root (mount, chroot).
//
// Like Docker's layer cache, a step whose instruction and inputs match those of a step already run is not run again:
// the stage continues from the snapshot (hard links) taken after that RUN. A variant of the Dockerfile with one step
// changed therefore re-runs only from that step on.

const SYSTEM_BINDS = ['usr', 'etc', 'dev', 'proc', 'sys'];
/** The official node images' unprivileged user (`node`, 1000:1000), which this machine may not have. */
const IMAGE_USERS = 'node:x:1000:1000::/home/node:/bin/bash\n';
const IMAGE_GROUPS = 'node:x:1000:\n';
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface Instruction {
  op: string;
  args: string;
  line: number;
}

export interface Stage {
  name: string;
  from: string;
  steps: Instruction[];
}

interface StageState {
  env: Record<string, string>;
  args: Record<string, string>;
  workdir: string;
  user: string;
}

export interface BuiltStage {
  name: string;
  root: string;
  state: StageState;
  key: string;
  cmd?: string[];
  healthcheck?: string[];
}

export class ReplayError extends Error {
  constructor(
    readonly instruction: Instruction,
    readonly output: string,
  ) {
    super(`line ${instruction.line}: ${instruction.op} ${instruction.args} failed:\n${output.slice(-3000)}`);
  }
}

/** Splits a Dockerfile into stages of instructions (continuation lines joined, comments dropped). */
export function parseDockerfile(text: string): { globalArgs: Instruction[]; stages: Stage[] } {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    while (line.endsWith('\\')) {
      line = line.slice(0, -1);
      // Comment lines inside a continued instruction are dropped, as Docker does.
      while (i + 1 < lines.length && /^\s*#/.test(lines[i + 1])) i++;
      line += lines[++i] ?? '';
    }
    const match = /^\s*(\w+)\s+(.*)$/.exec(line);
    if (!match) throw new Error(`line ${start + 1}: not an instruction: ${line}`);
    instructions.push({ op: match[1].toUpperCase(), args: match[2].trim(), line: start + 1 });
  }
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.op === 'FROM') {
      const [from, as, name] = instruction.args.split(/\s+/);
      stages.push({ name: as?.toUpperCase() === 'AS' ? name : String(stages.length), from, steps: [] });
    } else if (stages.length === 0) {
      if (instruction.op !== 'ARG') throw new Error(`line ${instruction.line}: only ARG may precede the first FROM`);
      globalArgs.push(instruction);
    } else stages.at(-1)!.steps.push(instruction);
  }
  return { globalArgs, stages };
}

/** `${NAME}`, `${NAME:-default}` and `$NAME` from `vars`, as Docker expands them in ENV, WORKDIR, COPY, USER and FROM. */
function expand(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)/g, (_, braced, fallback, bare) => vars[braced ?? bare] ?? fallback ?? '');
}

/** `A=1 B="two words"` into pairs (ENV, ARG). */
function keyValues(text: string): Array<[string, string | undefined]> {
  const pairs: Array<[string, string | undefined]> = [];
  for (const match of text.matchAll(/(\w+)(?:=("(?:[^"\\]|\\.)*"|'[^']*'|\S*))?/g)) {
    const raw = match[2];
    pairs.push([match[1], raw === undefined ? undefined : /^["']/.test(raw) ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw]);
  }
  return pairs;
}

/** Leading `--name=value` flags of COPY, RUN and HEALTHCHECK, and the rest. */
function flags(text: string): { flags: Array<[string, string]>; rest: string } {
  const found: Array<[string, string]> = [];
  let rest = text;
  for (let match = /^--([\w-]+)(?:=(\S*))?\s+/.exec(rest); match; match = /^--([\w-]+)(?:=(\S*))?\s+/.exec(rest)) {
    found.push([match[1], match[2] ?? '']);
    rest = rest.slice(match[0].length);
  }
  return { flags: found, rest };
}

/** Exec form (`["a", "b"]`) as it is; shell form through `/bin/sh -c`, as Docker runs them. */
function argv(text: string): string[] {
  return text.startsWith('[') ? (JSON.parse(text) as string[]) : ['/bin/sh', '-c', text];
}

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The build context: the working tree's files (tracked, and untracked but not git-ignored), minus .dockerignore. */
export function buildContext(repo: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: repo, encoding: 'utf8' });
  const ignoreFile = join(repo, '.dockerignore');
  const patterns = existsSync(ignoreFile)
    ? readFileSync(ignoreFile, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  if (patterns.some((p) => p.startsWith('!'))) throw new Error('.dockerignore exceptions (!) are not replayed');
  const ignored = patterns.map((p) => new RegExp(`^${globToRegex(p.replace(/^\/|\/$/g, ''))}(/.*)?$`));
  return [...new Set(listed.split('\0').filter(Boolean))].filter((file) => existsSync(join(repo, file)) && !ignored.some((r) => r.test(file))).sort();
}

function globToRegex(glob: string): string {
  // U+0000 holds the place of `**` while single stars are replaced: no glob contains it.
  return glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*/g, '\u0000')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]')
    .replaceAll('\u0000', '.*');
}

export interface ReplayOptions {
  /** The repository the context is taken from. */
  repo: string;
  /** Where stage roots and snapshots go; kept across replays so that the layer cache works. */
  scratch: string;
  /** Build arguments (`--build-arg`). */
  buildArgs?: Record<string, string>;
  /** Receives one line per step: `CACHED`, or how long it ran. */
  log?: (line: string) => void;
}

/** Results of earlier steps: key to the snapshot (root directory and state) taken after that step. */
const layerCache = new Map<string, { root: string; state: StageState }>();

/** Replays `dockerfile` up to its last stage (the image); throws a {@link ReplayError} at the first step that fails. */
export function replayDockerfile(dockerfile: string, options: ReplayOptions): BuiltStage {
  const { globalArgs, stages } = parseDockerfile(dockerfile);
  const globals: Record<string, string> = {};
  for (const instruction of globalArgs) {
    for (const [name, value] of keyValues(instruction.args)) globals[name] = options.buildArgs?.[name] ?? value ?? '';
  }
  const context = buildContext(options.repo);
  const contextHash = new Map(context.map((file) => [file, hash(file, readFileSync(join(options.repo, file), 'latin1'))]));
  const built = new Map<string, BuiltStage>();
  const log = options.log ?? (() => {});
  let image: BuiltStage | undefined;

  for (const [index, stage] of stages.entries()) {
    const from = expand(stage.from, globals);
    // The machine's Node stands in for the base image's: only official node images are replayed.
    if (!/^node:[\w.-]+$/.test(from)) throw new Error(`FROM ${from}: only node images can be replayed`);
    const root = join(options.scratch, `${index}-${stage.name}-${hash(String(Math.random())).slice(0, 8)}`);
    let state: StageState = { env: { PATH: DEFAULT_PATH }, args: {}, workdir: '/', user: 'root' };
    let key = hash('FROM', from);
    let cmd: string[] | undefined;
    let healthcheck: string[] | undefined;
    createBaseRoot(root);

    // The layer cache: the keys of every step, then the last RUN whose snapshot exists.
    const keys: string[] = [];
    for (const step of stage.steps) {
      key = hash(key, step.op, step.args, stepInputs(step, built, context, contextHash), JSON.stringify(options.buildArgs ?? {}));
      keys.push(key);
    }
    let resumeAt = 0;
    let stageRoot = root;
    for (let i = keys.length - 1; i >= 0; i--) {
      const cached = layerCache.get(keys[i]);
      if (!cached) continue;
      state = structuredClone(cached.state);
      resumeAt = i + 1;
      // A stage cached to its last step is only read (by COPY --from, or to start): its snapshot serves as it is.
      if (resumeAt === keys.length) stageRoot = cached.root;
      else {
        const started = Date.now();
        rmSync(root, { recursive: true, force: true });
        execFileSync('cp', ['-al', cached.root, root]);
        log(`${stage.name} restored the layer of line ${stage.steps[i].line}: ${Date.now() - started} ms`);
      }
      break;
    }

    for (const [i, step] of stage.steps.entries()) {
      const vars = { ...globals, ...state.args, ...state.env };
      // Metadata-only instructions are replayed even when cached: they are not in the snapshot's file system.
      if (i < resumeAt && !['CMD', 'HEALTHCHECK', 'EXPOSE', 'LABEL'].includes(step.op)) {
        log(`${stage.name} ${step.op} ${step.args.slice(0, 60)}: CACHED`);
        continue;
      }
      const started = Date.now();
      switch (step.op) {
        case 'ARG':
          for (const [name, value] of keyValues(step.args)) state.args[name] = options.buildArgs?.[name] ?? value ?? globals[name] ?? '';
          break;
        case 'ENV':
          for (const [name, value] of keyValues(step.args)) state.env[name] = expand(value ?? '', vars);
          break;
        case 'WORKDIR':
          state.workdir = posix.resolve(state.workdir, expand(step.args, vars));
          mkdirSync(join(root, state.workdir), { recursive: true });
          break;
        case 'USER':
          state.user = expand(step.args, vars);
          break;
        case 'COPY':
          copy(step, expand(step.args, vars), root, state, built, options.repo, context);
          break;
        case 'RUN':
          run(step, root, state, globals);
          break;
        case 'CMD':
          cmd = argv(step.args);
          break;
        case 'HEALTHCHECK':
          healthcheck = argv(flags(step.args).rest.replace(/^CMD\s+/, ''));
          break;
        case 'EXPOSE':
        case 'LABEL':
          break;
        default:
          throw new Error(`line ${step.line}: ${step.op} is not replayed`);
      }
      if (step.op === 'RUN') {
        log(`${stage.name} ${step.op} ${step.args.slice(0, 60)}: ${Date.now() - started} ms`);
        // Snapshot after every RUN (the slow steps), so that a variant resumes at most a few COPYs before its change.
        // An earlier stage's last step needs no copy: nothing writes to that stage after it (COPY --from only reads).
        if (i === stage.steps.length - 1 && index < stages.length - 1) {
          layerCache.set(keys[i], { root, state: structuredClone(state) });
          continue;
        }
        const snapshotted = Date.now();
        const snapshot = `${root}.layer-${i}`;
        execFileSync('cp', ['-al', root, snapshot]);
        layerCache.set(keys[i], { root: snapshot, state: structuredClone(state) });
        log(`${stage.name} snapshot after line ${step.line}: ${Date.now() - snapshotted} ms`);
      }
    }
    image = { name: stage.name, root: stageRoot, state, key, cmd, healthcheck };
    built.set(stage.name, image);
  }
  return image!;
}

/** What a step's result depends on besides its text: the files COPY reads (by content), or the stage it reads from. */
function stepInputs(step: Instruction, built: Map<string, BuiltStage>, context: string[], contextHash: Map<string, string>): string {
  if (step.op !== 'COPY') return '';
  const { flags: found, rest } = flags(step.args);
  const from = found.find(([name]) => name === 'from')?.[1];
  if (from) return built.get(from)?.key ?? from;
  const sources = rest.split(/\s+/).slice(0, -1);
  return sources
    .flatMap((s) => contextFiles(context, s))
    .map((f) => contextHash.get(f))
    .join(',');
}

/** The context files a COPY source names: one file, a directory's files, a glob's matches or everything (`.`). */
function contextFiles(context: string[], source: string): string[] {
  const path = posix.normalize(source).replace(/^\/|\/$/g, '');
  if (path === '.') return context;
  const pattern = new RegExp(`^${globToRegex(path)}(/.*)?$`);
  return context.filter((file) => pattern.test(file));
}

function createBaseRoot(root: string): void {
  mkdirSync(root, { recursive: true });
  chmodSync(root, 0o755);
  for (const dir of SYSTEM_BINDS) mkdirSync(join(root, dir));
  for (const link of ['bin', 'lib', 'lib64', 'sbin']) {
    if (lstatSync(`/${link}`, { throwIfNoEntry: false })?.isSymbolicLink()) execFileSync('ln', ['-s', `usr/${link}`, join(root, link)]);
    else if (existsSync(`/${link}`)) mkdirSync(join(root, link));
  }
  mkdirSync(join(root, 'tmp'), { mode: 0o1777 });
  chmodSync(join(root, 'tmp'), 0o1777);
  mkdirSync(join(root, 'root'), { mode: 0o700 });
  // The base image's users: this machine's, plus the node images' `node` when the machine has none.
  const passwd = readFileSync('/etc/passwd', 'utf8');
  const group = readFileSync('/etc/group', 'utf8');
  mkdirSync(join(root, '.replay'));
  writeFileSync(join(root, '.replay/passwd'), /^node:/m.test(passwd) ? passwd : passwd + IMAGE_USERS);
  writeFileSync(join(root, '.replay/group'), /^node:/m.test(group) ? group : group + IMAGE_GROUPS);
  mkdirSync(join(root, 'home/node'), { recursive: true });
  chownSync(join(root, 'home/node'), 1000, 1000);
}

function copy(step: Instruction, args: string, root: string, state: StageState, built: Map<string, BuiltStage>, repo: string, context: string[]): void {
  const { flags: found, rest } = flags(args);
  for (const [name] of found) if (name !== 'from') throw new Error(`line ${step.line}: COPY --${name} is not replayed`);
  const from = found.find(([name]) => name === 'from')?.[1];
  const parts = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : rest.split(/\s+/);
  const sources = parts.slice(0, -1);
  const dest = posix.resolve(state.workdir, parts.at(-1)!);
  const intoDir = parts.at(-1)!.endsWith('/') || sources.length > 1;
  const place = (target: string, copyFrom: string) => {
    const path = join(root, target);
    // Unlink first: the file may be a hard link shared with a snapshot, which must not change.
    rmSync(path, { recursive: true, force: true });
    mkdirSync(dirname(path), { recursive: true });
    cpSync(copyFrom, path, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  };
  for (const source of sources) {
    if (from) {
      const stage = built.get(from);
      if (!stage) throw new ReplayError(step, `no stage named ${from}`);
      const path = join(stage.root, posix.resolve(stage.state.workdir, source));
      if (!existsSync(path)) throw new ReplayError(step, `${source} does not exist in stage ${from}`);
      if (statSync(path).isDirectory()) {
        for (const entry of readdirSync(path)) place(posix.join(dest, entry), join(path, entry));
      } else place(intoDir ? posix.join(dest, posix.basename(source)) : dest, path);
      continue;
    }
    const files = contextFiles(context, source);
    if (files.length === 0) throw new ReplayError(step, `${source} is not in the build context`);
    const base = posix.normalize(source).replace(/^\/|\/$/g, '');
    const single = files.length === 1 && files[0] === base;
    for (const file of files) {
      // A file source goes to dest (or into it); a directory's or glob's files keep their path below it.
      const relative = single ? posix.basename(file) : base === '.' || /[*?]/.test(base) ? file : posix.relative(base, file);
      const target = single && !intoDir ? dest : posix.join(dest, /[*?]/.test(base) ? posix.basename(file) : relative);
      place(target, join(repo, file));
    }
  }
}

/** The shell lines that build the container's file system in a fresh mount namespace, then chroot into it. */
function enterRoot(root: string, cacheMounts: string[][]): string {
  const lines = ['set -e'];
  for (const dir of SYSTEM_BINDS) lines.push(`mount --rbind /${dir} ${quote(join(root, dir))}`);
  lines.push(`mount --bind ${quote(join(root, '.replay/passwd'))} ${quote(join(root, 'etc/passwd'))}`);
  lines.push(`mount --bind ${quote(join(root, '.replay/group'))} ${quote(join(root, 'etc/group'))}`);
  for (const [host, target] of cacheMounts) {
    lines.push(`mkdir -p ${quote(host)} ${quote(join(root, target))}`, `mount --bind ${quote(host)} ${quote(join(root, target))}`);
  }
  return lines.join('\n');
}

/** argv run as `user` in the root, from `workdir`, with exactly `env`: `unshare` execs, so the pid is the process's. */
function inRoot(
  root: string,
  state: StageState,
  env: Record<string, string>,
  command: string[],
  cacheMounts: string[][] = [],
): [string, string[], Record<string, string>] {
  const asUser = state.user === 'root' || state.user === '0' ? [] : ['setpriv', `--reuid=${state.user}`, `--regid=${state.user}`, '--init-groups', '--'];
  const script = `${enterRoot(root, cacheMounts)}\nexec chroot ${quote(root)} ${asUser.join(' ')} /bin/sh -c 'cd "$0" && exec "$@"' ${[state.workdir, ...command].map(quote).join(' ')}`;
  const home = state.user === 'root' ? '/root' : `/home/${state.user}`;
  return ['unshare', ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', script], { HOME: home, ...env }];
}

function run(step: Instruction, root: string, state: StageState, globals: Record<string, string>): void {
  const { flags: found, rest } = flags(step.args);
  const cacheMounts: string[][] = [];
  for (const [name, value] of found) {
    const mount = Object.fromEntries(value.split(',').map((kv) => kv.split('=') as [string, string]));
    if (name !== 'mount' || mount.type !== 'cache' || !mount.target) throw new Error(`line ${step.line}: RUN --${name}=${value} is not replayed`);
    // npm's cache mount is this machine's npm cache: what a builder keeps between builds.
    const host = mount.target.endsWith('/.npm') ? join(homedir(), '.npm') : join(dirname(root), 'cache', hash(mount.target).slice(0, 12));
    cacheMounts.push([host, mount.target]);
  }
  // ARGs in scope reach RUN as environment variables, ENV ones win.
  const [file, args, env] = inRoot(root, state, { ...globals, ...state.args, ...state.env }, argv(rest), cacheMounts);
  const result = spawnSync(file, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new ReplayError(step, `${result.stdout}${result.stderr}${result.error ?? ''}(exit ${result.status})`);
}

/** Starts the image's CMD (or `command`) as its USER, with the image's ENV overlaid by `env`. */
export function startContainer(image: BuiltStage, env: Record<string, string>, command = image.cmd!): ChildProcess {
  const [file, args, fullEnv] = inRoot(image.root, image.state, { ...image.state.env, ...env }, command);
  return spawnChild(file, args, { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs `command` in the image as its USER to the end, as `docker exec` would (the HEALTHCHECK, say). */
export function execInContainer(image: BuiltStage, env: Record<string, string>, command: string[]): Promise<{ code: number | null; output: string }> {
  const [file, args, fullEnv] = inRoot(image.root, image.state, { ...image.state.env, ...env }, command);
  const child = spawn(file, args, { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

/** Whether this machine can replay: root, and mount namespaces allowed. */
export function canReplay(): string | undefined {
  if (process.getuid?.() !== 0) return 'replaying a Dockerfile needs root (mount namespaces, chroot)';
  const probe = spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']);
  return probe.status === 0 ? undefined : `unshare --mount failed: ${probe.stderr}`;
}

/**
 * Removes the scratch directory, after checking that no mount of a replay is left under it; `--one-file-system` would
 * skip one anyway rather than descend into the machine's /usr. (`rm` is also several times faster than fs.rmSync on
 * the hundreds of thousands of hard links the snapshots make.)
 */
export function removeScratch(scratch: string): void {
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8');
  if (mounts.includes(` ${scratch}/`)) throw new Error(`mounts remain under ${scratch}; not removing it`);
  execFileSync('rm', ['-rf', '--one-file-system', scratch]);
}
