import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Go's golang.org/x/mod/sumdb/note and sumdb/tlog, from Debian's golang-go and golang-golang-x-mod-dev (.ci/run
// installs them), driven by the small program in go-tlog/: built once per test file, in GOPATH mode, offline.
const GOPATH = '/usr/share/gocode';
const installed = spawnSync('go', ['version']).status === 0 && existsSync(join(GOPATH, 'src/golang.org/x/mod/sumdb/tlog'));

/** `it` for a test that needs Go: a visible skip where it is missing, except with CI=true, where the test fails. */
export const itWithGo: typeof it = installed || process.env.CI === 'true' ? it : it.skip;
if (!installed) console.warn("SKIPPED: the tests against Go's sumdb/note and sumdb/tlog: install Debian's golang-go and golang-golang-x-mod-dev (see .ci/run)");

export interface GoAnswer {
  ok: boolean;
  error?: string;
  text?: string;
  verified?: { name: string; hash: number }[];
  unverified?: { name: string; hash: number }[];
  vkey?: string;
  skey?: string;
  signed?: string;
  /** Base64 hashes: roots[n-1], inclusion[n-1][i] and consistency[n-1][m-1] for the first n entries. */
  tree?: { roots: string[]; inclusion: string[][][]; consistency: string[][][] };
}

export type GoRequest =
  | { op: 'open'; note: string; vkeys: string[] }
  | { op: 'sign'; text: string; name?: string; skey?: string }
  | { op: 'inclusion'; index: number; size: number; root: string; entry: string; hashes: string[] }
  | { op: 'consistency'; from: number; size: number; fromRoot: string; root: string; hashes: string[] }
  | { op: 'tree'; entries: string[] };

let binary: string | undefined;

/** Answers the requests with Go's code, in order; a failed check is `{ ok: false, error }`. */
export async function goTlog(requests: GoRequest[]): Promise<GoAnswer[]> {
  binary ??= await build();
  const child = promisify(execFile)(binary, [], { maxBuffer: 64 << 20 });
  child.child.stdin!.end(JSON.stringify(requests));
  return JSON.parse((await child).stdout) as GoAnswer[];
}

async function build(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'go-tlog-')), 'go-tlog');
  const env = { ...process.env, GO111MODULE: 'off', GOPATH, GOFLAGS: '', GOPROXY: 'off', GOCACHE: join(tmpdir(), 'go-tlog-cache') };
  await promisify(execFile)('go', ['build', '-o', out, '.'], { cwd: new URL('./go-tlog/', import.meta.url).pathname, env });
  return out;
}
