import { WeexAccountClients } from '#libs/weex-nest';
import { gatewaySuite } from './support/gateway-suite.js';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';
import { WorkerProcess } from './support/worker-process.js';

const KEY = 'agent-key-of-budget-window-tests-0123';
const UID = '8000000001';
/** The account's UID budget per 10 s window (an upload costs 1): small, so that a drain spans several windows fast. */
const LIMIT = 60;
const WINDOW_MS = 10_000;
/** Three whole budgets and one upload more: the drain must wait for the budget three times. */
const LOGS = 3 * LIMIT + 1;
const log = (marker: string) => `{"stage":"s","model":"m","input":{},"output":{},"explanation":"${marker}"}`;

/**
 * The gateway's uploads against an exchange that limits on fixed windows and one that limits on sliding ones (whether
 * WEEX slides is not known): a backlog drains with no 429 on either, using nearly all of the budget, as the simulator
 * counts it. Two workers (the gateway's own and a process) share the budget through Redis.
 */
describe('uploads spend the budget on fixed and sliding windows alike', () => {
  const env = {
    AGENT_API_KEY: KEY,
    WEEX_UID_WEIGHT_LIMIT: String(LIMIT),
    WEEX_WEIGHT_WINDOW_MS: String(WINDOW_MS),
    // Evidence sync spends the same budget; turned off so that the drain alone spends it.
    EVIDENCE_SYNC_INTERVAL_MS: '0',
  };
  const suite = gatewaySuite(env);
  let worker: WorkerProcess | undefined;

  beforeAll(() => {
    const { gateway, simulator } = suite.harness;
    worker = WorkerProcess.start({
      ...env,
      DATABASE_URL: gateway.runtime.databaseUrl,
      REDIS_URL,
      QUEUE_PREFIX: gateway.config.queuePrefix,
      WEEX_BASE_URL: simulator.url,
      LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    await worker?.stop('SIGTERM');
  });

  it.each(['fixed', 'sliding'] as const)(
    'on %s windows: no 429, at least 95 %% of the budget used, attempt latency without the wait',
    async (window) => {
      const { simulator, gateway, apiUrl } = suite.harness;
      // The drain starts with the budget unspent, on both sides.
      const budget = gateway.api.app.get(WeexAccountClients).forAccount('default')!.budget;
      await waitFor('the last drain to leave the budget', async () => ((await budget.usage()).uid.used === 0 ? true : undefined), 2 * WINDOW_MS);
      simulator.state.budgets.set({ ipLimit: 1_000, uidLimit: LIMIT, windowMs: WINDOW_MS, window });
      const before = { refused: simulator.state.stats().weight.refused429, seq: Math.max(0, ...simulator.state.uploads().map((u) => u.seq)) };

      for (let posted = 0; posted < LOGS; posted += 100) {
        const logs = Array.from({ length: Math.min(100, LOGS - posted) }, (_, i) => log(`${window}-${posted + i}`));
        const res = await fetch(`${apiUrl}/v1/ai-logs/batch`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: `{"logs":[${logs.join(',')}]}`,
        });
        expect(res.status).toBe(207);
      }
      const drained = () => simulator.state.uploads().filter((u) => u.seq > before.seq && u.uid === UID);
      await waitFor(`${LOGS} uploads`, async () => (drained().length >= LOGS ? true : undefined), 8 * WINDOW_MS);

      const times = drained()
        .map((u) => u.receivedAt)
        .sort((a, b) => a - b);
      // Upload number j × LIMIT could not go out sooner than j windows after the first without some window, fixed or
      // sliding, holding more than the limit: how close the drain came to that is the share of the budget it used.
      const blocks = Math.floor((LOGS - 1) / LIMIT);
      const share = (blocks * WINDOW_MS) / (times[blocks * LIMIT] - times[0]);
      const maxSliding = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + WINDOW_MS).length));
      const { rows } = await suite.db.query<{ p90: number; max: number }>(
        `SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY latency_ms) AS p90, max(latency_ms) AS max
       FROM upload_attempts a JOIN ai_logs l ON l.id = a.log_id WHERE l.explanation LIKE $1`,
        [`${window}-%`],
      );
      const refused = simulator.state.stats().weight.refused429 - before.refused;
      console.log(
        `budget windows (${window}): ${times.length} uploads, 429s ${refused}, budget used ${(share * 100).toFixed(1)} %, ` +
          `most in any 10 s span ${maxSliding} of ${LIMIT}, attempt latency p90 ${rows[0].p90} ms, max ${rows[0].max} ms`,
      );
      expect(refused).toBe(0);
      expect(times).toHaveLength(LOGS);
      expect(maxSliding).toBeLessThanOrEqual(LIMIT);
      expect(share).toBeGreaterThanOrEqual(0.95);
      // Each of the three budget waits lasted seconds; an attempt's latency is its exchange call alone, answered in ms.
      expect(rows[0].max).toBeLessThan(WINDOW_MS / 10);
    },
    120_000,
  );
});
