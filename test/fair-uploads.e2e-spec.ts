import { randomBytes } from 'node:crypto';
import { WeexAccountClients } from '#libs/weex-nest';
import { defaultSimAccounts } from '../apps/exchange-sim/src/index.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';
import { WorkerProcess } from './support/worker-process.js';

const ADMIN = 'admin-token-for-fair-upload-tests';
const KEY_A = 'agent-key-of-account-a-0123456789';
const B = { uid: '8000000077', apiKey: 'flooding-b-api-key', secret: 'flooding-b-secret-0123456789', passphrase: 'flooding-b-passphrase' };
/** Both accounts' UID budget per window, and the IP budget they share: the smallest the client accepts (allPositions is 10 IP / 15 UID). */
const BUDGET = 15;
const log = (marker: string) => `{"stage":"s","model":"m","input":{},"output":{},"explanation":"${marker}"}`;

describe('fair uploads: one account flooding delays no other', () => {
  const env = {
    AGENT_API_KEY: KEY_A,
    ADMIN_TOKEN: ADMIN,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    // The IP budget as small as each account's UID budget: a flooding account could take all of it.
    WEEX_IP_WEIGHT_LIMIT: String(BUDGET),
    WEEX_UID_WEIGHT_LIMIT: String(BUDGET),
    // Two-second windows, and a guard for the delay between a take and the exchange's count of a quarter of that: the
    // simulator runs in jest's process, whose event loop a loaded CI box stalls for more than the default 200 ms (two
    // 429s in a full run of the suite, with every take made as soon as the span had room).
    WEEX_WEIGHT_WINDOW_MS: '2000',
    WEEX_WEIGHT_GUARD_MS: '500',
    // Evidence sync spends the same budgets; turned off (otherwise its first run would be at start).
    EVIDENCE_SYNC_INTERVAL_MS: '0',
    // A retry a second or so after a failure, as deployed.
    UPLOAD_BACKOFF_MS: '1000',
  };
  const suite = gatewaySuite(env, { simulator: { accounts: [...defaultSimAccounts(), { ...B, aiLogAllowlisted: true }] } });

  const post = async (path: string, token: string, body: string) => {
    const res = await fetch(`${suite.harness!.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as { key: string };
  };
  const uploads = () => suite.harness!.simulator.state.uploads();

  it("uploads A's logs, and retries them, while B's backlog waits, and B keeps spending its budget", async () => {
    suite.harness.simulator.state.budgets.set({ ipLimit: BUDGET, uidLimit: BUDGET, windowMs: 2000 });
    const { uid: _, ...credentials } = B;
    await post('/admin/accounts', ADMIN, JSON.stringify({ id: 'flooder', name: 'B', ...credentials }));
    const { key: keyB } = await post('/admin/agents', ADMIN, JSON.stringify({ accountId: 'flooder', label: 'b' }));
    // B's backlog: 20 batches, each its own commit (and, before per-account wake-ups, its own job ahead of A's).
    for (let batch = 0; batch < 20; batch++) {
      const logs = Array.from({ length: 10 }, (_, i) => log(`B-${batch}-${i}`));
      await post('/v1/ai-logs/batch', keyB, `{"logs":[${logs.join(',')}]}`);
    }
    // A posts one log at a time: how many of B's uploads went out between each post and its upload?
    const ahead: number[] = [];
    for (let i = 0; i < 8; i++) {
      const before = uploads().length;
      await post('/v1/ai-logs', KEY_A, log(`A-${i}`));
      const mine = await waitFor(`A's log ${i} to be uploaded`, async () => uploads().find((u) => u.rawBody.includes(`"A-${i}"`)), 60_000);
      ahead.push(uploads().filter((u) => u.seq > before && u.seq < mine.seq && u.uid === B.uid).length);
    }
    const bDuringA = uploads().filter((u) => u.uid === B.uid).length;
    console.log(`fair-uploads: B's uploads ahead of each of A's logs: ${ahead.join(', ')}; B uploaded ${bDuringA} of 200 meanwhile`);
    // At most two windows of B's budget went out ahead of any of A's logs (one log of A takes at most one window to
    // find its weight); without fairness, A's logs waited behind most of B's backlog.
    expect(Math.max(...ahead)).toBeLessThanOrEqual(2 * BUDGET);
    // B kept uploading meanwhile, and its backlog was not drained yet when A was done.
    expect(bDuringA).toBeGreaterThan(0);
    expect(bDuringA).toBeLessThan(200);

    // A's retry a second after a failure is not queued behind B's backlog either.
    const faults = suite.harness.simulator.state.faults;
    faults.set({ accounts: { '8000000001': { errorRate: 1 } }, paths: ['/capi/v3/order/uploadAiLog'] });
    await post('/v1/ai-logs', KEY_A, log('A-retried'));
    const failedAt = await waitFor('the first attempt to fail', async () => {
      const { rows } = await suite.db.query(
        `SELECT count(*)::int AS n FROM upload_attempts a JOIN ai_logs l ON l.id = a.log_id WHERE l.explanation = 'A-retried'`,
      );
      return rows[0].n > 0 ? uploads().length : undefined;
    });
    faults.clear();
    const retried = await waitFor("A's retry to be uploaded", async () => uploads().find((u) => u.rawBody.includes('"A-retried"')), 60_000);
    const aheadOfRetry = uploads().filter((u) => u.seq > failedAt && u.seq < retried.seq && u.uid === B.uid).length;
    console.log(`fair-uploads: B's uploads between A's failed attempt and its retry: ${aheadOfRetry}`);
    expect(aheadOfRetry).toBeLessThanOrEqual(2 * BUDGET);
    expect(uploads().filter((u) => u.uid === B.uid).length).toBeLessThan(200);

    await waitFor("B's backlog to drain", async () => (uploads().filter((u) => u.uid === B.uid).length === 200 ? true : undefined), 120_000);
    expect(suite.harness.simulator.state.stats().weight.refused429).toBe(0);
  }, 180_000);
});

describe('fair uploads: a worker claims a log only with its weight in hand', () => {
  const env = { AGENT_API_KEY: KEY_A, UPLOAD_CLAIM_MS: '2000', RELAY_INTERVAL_MS: '300', EVIDENCE_SYNC_INTERVAL_MS: '0' };
  const suite = gatewaySuite(env, { worker: false });
  const count = async (sql: string) => Number((await suite.db.query(sql)).rows[0].n);

  it('leaves no uncertain attempt for the logs a worker SIGKILLed while it waited for budget never sent', async () => {
    const { simulator, gateway } = suite.harness;
    // The deployment's window (so that the harness's own client reads the same window), with a small UID budget: once
    // it is spent, the worker waits seconds for the next window.
    simulator.state.budgets.set({ ipLimit: 100, uidLimit: BUDGET, windowMs: 10_000 });
    const budgets = { WEEX_IP_WEIGHT_LIMIT: '100', WEEX_UID_WEIGHT_LIMIT: String(BUDGET) };
    const workerEnv = {
      ...env,
      ...budgets,
      DATABASE_URL: gateway.runtime.databaseUrl,
      REDIS_URL,
      QUEUE_PREFIX: gateway.config.queuePrefix,
      WEEX_BASE_URL: simulator.url,
      LOG_LEVEL: 'warn',
    };
    // More than two windows' worth: however the uploads fall across windows, some are left waiting for the budget.
    const LOGS = 2 * BUDGET + 10;
    // One request each, so that each log is committed (and, before per-account wake-ups, queued) on its own.
    await Promise.all(
      Array.from({ length: LOGS }, (_, i) =>
        fetch(`${suite.harness!.apiUrl}/v1/ai-logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' },
          body: log(`crash-${i}`),
        }),
      ),
    );
    const budget = gateway.api.app.get(WeexAccountClients).forAccount('default')!.budget;
    let worker = WorkerProcess.start(workerEnv);
    // The window's budget is spent, every upload that used it is recorded, and the window has a while to go: the
    // worker now waits for the next one.
    await waitFor(
      'the worker to wait for budget',
      async () => {
        const { uid } = await budget.usage();
        const uploaded = await count(`SELECT count(*)::int AS n FROM ai_logs WHERE status = 'uploaded'`);
        return uid.used >= BUDGET && uid.msBeforeReset > 3_000 && uploaded === simulator.state.uploads().length ? true : undefined;
      },
      60_000,
    );
    await worker.stop('SIGKILL');
    const sentBeforeKill = simulator.state.uploads().length;
    worker = WorkerProcess.start(workerEnv);
    try {
      await waitFor(
        'every log to be uploaded',
        async () => ((await count(`SELECT count(*)::int AS n FROM ai_logs WHERE status = 'uploaded'`)) === LOGS ? true : undefined),
        90_000,
      );
    } finally {
      await worker.stop('SIGTERM');
    }
    const uncertain = await count(`SELECT count(*)::int AS n FROM upload_attempts WHERE outcome = 'uncertain'`);
    console.log(`fair-uploads crash: ${sentBeforeKill} uploads before the SIGKILL, ${uncertain} uncertain attempts after it`);
    expect(sentBeforeKill).toBeLessThan(LOGS);
    expect(uncertain).toBe(0);
    expect(new Set(simulator.state.uploads().map((u) => u.rawBody)).size).toBe(LOGS);
    expect(simulator.state.uploads()).toHaveLength(LOGS);
  }, 150_000);
});
