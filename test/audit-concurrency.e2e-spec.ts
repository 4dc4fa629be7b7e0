import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ExportVerifier } from '#libs/audit-chain';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';
import { spawnChild } from './support/child-processes.js';

// A second API process on the same database and Redis (`npm test` builds dist/ first).
const API_MAIN = new URL('../dist/apps/api/src/main.js', import.meta.url).pathname;
const ADMIN = 'admin-token-for-chain-concurrency';
const LOGS = 10_000;

describe('one unbroken chain under concurrent ingest from many agents and two API processes', () => {
  const env: Record<string, string> = { ADMIN_TOKEN: ADMIN, AGENT_RATE_LIMIT_PER_MIN: '0', LOG_LEVEL: 'warn' };
  const suite = gatewaySuite(env, { worker: false });
  let second: ChildProcess | undefined;
  afterAll(async () => {
    if (second && second.exitCode === null) {
      second.kill('SIGTERM');
      await once(second, 'exit');
    }
  });

  it(`chains ${LOGS} logs posted at once, singly and in batches, through both processes`, async () => {
    const config = suite.harness.gateway.config;
    second = spawnChild(process.execPath, [API_MAIN], {
      env: {
        PATH: process.env.PATH,
        ...env,
        LOG_LEVEL: 'log',
        PORT: '0',
        DATABASE_URL: config.databaseUrl!,
        REDIS_URL: config.redisUrl!,
        QUEUE_PREFIX: config.queuePrefix,
        DATA_DIR: suite.harness.dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    second.stdout!.on('data', (chunk) => (output += chunk));
    second.stderr!.on('data', (chunk) => (output += chunk));
    const secondUrl = await waitFor('the second API', async () => /listening on (http:\/\/[^\s"]+)/.exec(output)?.[1], 60_000);
    const apis = [suite.harness.apiUrl, secondUrl];

    // Eight agents, each with a key of its own.
    const keys: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${apis[0]}/admin/agents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: 'default', label: `agent ${i}` }),
      });
      keys.push(((await res.json()) as { key: string }).key);
    }
    const log = (n: number) =>
      `{"orderId":${7_000_000_000 + n},"stage":"decision","model":"m","input":{"n":${n}},"output":{"ok":true},"explanation":"log ${n}"}`;
    // Half the logs in batches of 50, half one by one; each agent posts through both processes in turn.
    const requests: Array<{ path: string; body: string }> = [];
    for (let n = 0; n < LOGS / 2; n += 50) {
      requests.push({ path: '/v1/ai-logs/batch', body: `{"logs":[${Array.from({ length: 50 }, (_, i) => log(n + i)).join(',')}]}` });
    }
    for (let n = LOGS / 2; n < LOGS; n++) requests.push({ path: '/v1/ai-logs', body: log(n) });
    let next = 0;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: 32 }, async (_, worker) => {
        for (let i = next++; i < requests.length; i = next++) {
          const { path, body } = requests[i];
          const res = await fetch(`${apis[(i + worker) % 2]}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${keys[worker % keys.length]}`, 'content-type': 'application/json' },
            body,
          });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          await res.arrayBuffer();
        }
      }),
    );
    expect(Object.fromEntries(statuses)).toEqual({ 202: LOGS / 2, 207: LOGS / 100 });

    const { rows } = await suite.db.query(
      'SELECT count(*)::int AS n, min(seq)::text AS lo, max(seq)::text AS hi, count(DISTINCT seq)::int AS distinct FROM ai_logs',
    );
    expect(rows[0]).toEqual({ n: LOGS, lo: '1', hi: String(LOGS), distinct: LOGS });
    const verifier = new ExportVerifier();
    const text = await (await fetch(`${apis[1]}/v1/audit/export`, { headers: { authorization: `Bearer ${keys[0]}` } })).text();
    for (const line of text.split('\n')) verifier.add(line);
    expect(verifier.finish()).toMatchObject({ ok: true, rows: LOGS, firstSeq: '1', lastSeq: String(LOGS) });
  }, 180_000);
});
