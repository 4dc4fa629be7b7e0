import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort, poll } from './processes.mjs';
import { withClient } from './services.mjs';

/**
 * A PostgreSQL server of the scenario's own (initdb in a temporary directory, a free port, initdb's defaults), for a
 * scenario that needs autovacuum: it is server-wide, and the machine's server may run with it off (the test machines
 * do). Nothing of the machine's server or its configuration is touched. initdb refuses to run as root, so as root the
 * server runs as the `postgres` user. Answers `{ url, autovacuum }`: the URL of its `postgres` database.
 */
export async function startPrivatePostgres(cleanup) {
  const bin = binDir();
  const owner = process.getuid?.() === 0 ? systemUser('postgres') : {};
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-pg-'));
  cleanup.defer(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (owner.uid !== undefined) chownSync(dataDir, owner.uid, owner.gid);
  const run = (command, args) =>
    spawn(join(bin, command), args, { ...owner, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' } });

  const initdb = run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const initOutput = collect(initdb);
  const [code] = await once(initdb, 'exit');
  if (code !== 0) throw new Error(`initdb exited ${code}:\n${initOutput()}`);

  const port = await freePort();
  // autovacuum is initdb's default already; said here because it is why this server exists.
  const server = run('postgres', [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${dataDir}`,
    '-c',
    'autovacuum=on',
  ]);
  const serverOutput = collect(server);
  const exited = once(server, 'exit');
  cleanup.defer(async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.kill('SIGINT'); // fast shutdown: the data is thrown away with the directory
    await exited;
  });
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  await poll('the private PostgreSQL to answer', 30_000, async () => {
    if (server.exitCode !== null) throw new Error(`postgres exited ${server.exitCode}:\n${serverOutput()}`);
    return withClient(url, (client) => client.query('SHOW autovacuum')).then(
      (r) => r.rows[0].autovacuum,
      () => undefined,
    );
  });
  const autovacuum = (await withClient(url, (client) => client.query('SHOW autovacuum'))).rows[0].autovacuum;
  return { url, autovacuum };
}

/** Where initdb and postgres are: on the PATH, else Debian's /usr/lib/postgresql/<newest>/bin. */
function binDir() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  if (!found) throw new Error('initdb not found on the PATH or under /usr/lib/postgresql/*/bin: install PostgreSQL (apt-get install postgresql)');
  return found;
}

function systemUser(name) {
  const id = (flag) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Keeps the last 16 KB of a child's output, for the error message if it fails. */
function collect(child) {
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-16_384));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return () => output;
}
