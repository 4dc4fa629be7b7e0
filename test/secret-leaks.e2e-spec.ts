import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '../apps/exchange-sim/src/index.js';
import { REDIS_URL } from './support/services.js';
import { createTempDatabase } from './support/temp-database.js';
import { waitFor } from './support/wait-for.js';
import { spawnChild } from './support/child-processes.js';

// The built gateway in live mode, every log level on, through uploads, admin changes and failures: its whole output
// must not contain one secret. `npm test` builds first (pretest), so dist/ is the code under test.
const MAIN = new URL('../dist/apps/standalone/src/main.js', import.meta.url).pathname;
const json = (res: Response): Promise<any> => res.json();

const LIVE = { apiKey: 'live-api-key-7f3a9c', secret: 'live-api-secret-0b8e4d2a', passphrase: 'live-passphrase-5c1f' };
const TEAM_B = { apiKey: 'team-b-api-key-91d2', secret: 'team-b-secret-3e7a0c55', passphrase: 'team-b-passphrase-real' };
const ADMIN_TOKEN = `adm-${randomBytes(12).toString('hex')}`;
const AGENT_KEY = `agent-${randomBytes(12).toString('hex')}`;
const SECRETS_KEY = randomBytes(32).toString('hex');
const LOG = '{"orderId":737185556881998184,"stage":"decision","model":"m","input":{"a":1},"output":{"b":2},"explanation":"why"}';

describe('secrets never reach the log', () => {
  let sim: RunningSimulator;
  let child: ChildProcess | undefined;
  let output = '';
  let drop = async () => {};
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-leaks-'));

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
    await sim?.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes JSON lines with request ids, and not one credential, passphrase, token, key or signature', async () => {
    sim = await startSimulator({
      port: 0,
      accounts: [
        { uid: '8000000001', ...LIVE, aiLogAllowlisted: true },
        { uid: '8000000055', ...TEAM_B, aiLogAllowlisted: true },
      ],
    });
    const db = await createTempDatabase();
    drop = db.drop;
    const env = {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: '0',
      DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_PREFIX: `leaks-${randomBytes(4).toString('hex')}`,
      WEEX_API_KEY: LIVE.apiKey,
      WEEX_API_SECRET: LIVE.secret,
      WEEX_API_PASSPHRASE: LIVE.passphrase,
      WEEX_BASE_URL: sim.url,
      WEEX_SPOT_BASE_URL: sim.spotUrl,
      ADMIN_TOKEN,
      AGENT_API_KEY: AGENT_KEY,
      SECRETS_KEY,
      UPLOAD_BACKOFF_MS: '50',
      LOG_LEVEL: 'verbose',
    };
    child = spawnChild(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const url = await waitFor('the gateway to listen', async () => /listening on (http:\/\/\S+)/.exec(output)?.[1], 60_000);
    const call = (path: string, token: string, body?: string, method = body ? 'POST' : 'GET') =>
      fetch(`${url}${path}`, { method, body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });

    // Team B is added with a wrong passphrase first: its upload fails with an auth error, which is logged.
    const wrong = { ...TEAM_B, passphrase: 'team-b-wrong-passphrase' };
    expect((await call('/admin/accounts', ADMIN_TOKEN, JSON.stringify({ id: 'team-b', name: 'B', ...wrong }))).status).toBe(201);
    const { key: teamBKey } = await json(await call('/admin/agents', ADMIN_TOKEN, JSON.stringify({ accountId: 'team-b', label: 'b' })));
    const ids: string[] = [];
    for (const token of [AGENT_KEY, AGENT_KEY, teamBKey]) ids.push((await json(await call('/v1/ai-logs', token, LOG))).id);
    await waitFor(
      'the logs to settle',
      async () => {
        const views = await Promise.all(ids.map(async (id, i) => json(await call(`/v1/ai-logs/${id}`, i < 2 ? AGENT_KEY : teamBKey))));
        return views.every((v) => v.status === 'uploaded' || v.status === 'failed') ? views : undefined;
      },
      30_000,
    );
    // Then the right passphrase, a retry that succeeds, and a few refused requests.
    expect((await call('/admin/accounts/team-b/credentials', ADMIN_TOKEN, JSON.stringify(TEAM_B), 'PUT')).status).toBe(200);
    const last = (await json(await call('/v1/ai-logs', teamBKey, LOG))).id;
    await waitFor('team B upload', async () => ((await json(await call(`/v1/ai-logs/${last}`, teamBKey))).status === 'uploaded' ? true : undefined), 30_000);
    expect((await call('/admin/accounts', `${ADMIN_TOKEN}x`)).status).toBe(401);
    expect((await call('/v1/ai-logs', `${AGENT_KEY}x`, LOG)).status).toBe(401);

    child.kill('SIGTERM');
    await new Promise((resolve) => child!.once('exit', resolve));

    const lines = output.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.length).toBeGreaterThan(10);
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.some((l) => l.reqId && l.req?.url === '/v1/ai-logs')).toBe(true);
    expect(parsed.some((l) => l.level === 40 && /auth/.test(l.msg))).toBe(true); // the failed upload was logged
    const signatures = sim.state.uploads().map((u) => u.signature);
    expect(signatures.length).toBeGreaterThanOrEqual(3);
    const secrets = [...Object.values(LIVE), ...Object.values(TEAM_B), wrong.passphrase, ADMIN_TOKEN, AGENT_KEY, SECRETS_KEY, teamBKey, ...signatures];
    for (const secret of secrets) expect({ secret, found: output.includes(secret) }).toEqual({ secret, found: false });
  }, 120_000);
});
