import { randomBytes } from 'node:crypto';
import type { Harness } from './support/gateway-harness.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';
import { WorkerProcess } from './support/worker-process.js';

const KEY = 'agent-key-for-worker-crash-tests';
const LOGS = 1_000;

/** Per log: how many times the simulator recorded its body (more than once is a duplicate at the exchange). */
function duplicatesAtExchange(harness: Harness): number {
  const seen = new Map<string, number>();
  for (const u of harness.simulator.state.uploads()) seen.set(u.rawBody, (seen.get(u.rawBody) ?? 0) + 1);
  return [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
}

describe('workers that die', () => {
  const env = { AGENT_API_KEY: KEY, QUEUE_PREFIX: `crash-${randomBytes(4).toString('hex')}`, UPLOAD_CLAIM_MS: '1500', RELAY_INTERVAL_MS: '300' };
  const suite = gatewaySuite(env, { worker: false });
  let workerEnv: Record<string, string>;

  beforeAll(() => {
    const { simulator, gateway } = suite.harness;
    // Budgets well above the upload rate, so that the test measures crashes rather than the exchange's pace.
    simulator.state.budgets.set({ ipLimit: 20_000, uidLimit: 20_000 });
    const budgets = { WEEX_IP_WEIGHT_LIMIT: '20000', WEEX_UID_WEIGHT_LIMIT: '20000' };
    const services = { DATABASE_URL: gateway.runtime.databaseUrl, REDIS_URL };
    workerEnv = { ...env, ...services, ...budgets, WEEX_BASE_URL: simulator.url, LOG_LEVEL: 'warn', UPLOAD_CONCURRENCY: '16' };
  });

  const statusCounts = async () =>
    Object.fromEntries((await suite.db.query('SELECT status, count(*)::int AS n FROM ai_logs GROUP BY status')).rows.map((r) => [r.status, r.n]));

  it(`uploads all of ${LOGS} logs while the worker is SIGKILLed again and again, with duplicates only from uncertain attempts`, async () => {
    const { harness, db } = suite;
    const started = Date.now();
    for (let i = 0; i < LOGS; i += 250) {
      const logs = Array.from({ length: 250 }, (_, j) => `{"stage":"s","model":"m","input":{"n":${i + j}},"output":{},"explanation":""}`);
      const res = await fetch(`${harness.apiUrl}/v1/ai-logs/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: `{"logs":[${logs.join(',')}]}`,
      });
      expect(res.status).toBe(207);
    }
    let kills = 0;
    let worker = WorkerProcess.start(workerEnv);
    // Kill the worker each time it has made some progress, until the work is nearly done; then let one finish.
    while (kills < 8) {
      const before = harness.simulator.state.uploads().length;
      await waitFor('the worker to upload some logs', async () => (harness!.simulator.state.uploads().length >= before + 40 ? true : undefined), 60_000);
      if ((await statusCounts()).uploaded > LOGS * 0.8) break;
      await worker.stop('SIGKILL');
      kills++;
      worker = WorkerProcess.start(workerEnv);
    }
    try {
      await waitFor('every log to be uploaded', async () => ((await statusCounts()).uploaded === LOGS ? true : undefined), 120_000);
    } finally {
      await worker.stop('SIGTERM');
    }
    const uncertain = Number((await db.query(`SELECT count(*) FROM upload_attempts WHERE outcome = 'uncertain'`)).rows[0].count);
    const duplicates = duplicatesAtExchange(harness);
    console.log(
      `worker-crash: ${LOGS} logs, ${kills} SIGKILLs, 0 lost, ${duplicates} duplicates at the exchange, ${uncertain} uncertain attempts, ${Date.now() - started} ms`,
    );
    expect(kills).toBeGreaterThan(0);
    expect(duplicates).toBeLessThanOrEqual(uncertain);
  }, 240_000);

  it('finishes in-flight uploads on SIGTERM and leaves no log claimed', async () => {
    const { harness } = suite;
    const logs = Array.from({ length: 100 }, (_, j) => `{"stage":"t","model":"m","input":{"n":${j}},"output":{},"explanation":""}`);
    await fetch(`${harness.apiUrl}/v1/ai-logs/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: `{"logs":[${logs.join(',')}]}`,
    });
    const before = harness.simulator.state.uploads().length;
    const worker = WorkerProcess.start({ ...workerEnv, UPLOAD_CONCURRENCY: '4' });
    await waitFor('some uploads', async () => (harness!.simulator.state.uploads().length > before + 5 ? true : undefined), 60_000);
    expect(await worker.stop('SIGTERM')).toBe(0);
    expect((await statusCounts()).uploading ?? 0).toBe(0);
  }, 120_000);
});
