import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-upload-fault-tests';
const LOGS = 300;

describe('uploads through exchange faults', () => {
  // A short request timeout, so that a dropped connection is noticed quickly; fast retries.
  const suite = gatewaySuite({
    AGENT_API_KEY: KEY,
    WEEX_TIMEOUT_MS: '1000',
    UPLOAD_BACKOFF_MS: '100',
    UPLOAD_BACKOFF_MAX_MS: '1000',
    RELAY_INTERVAL_MS: '500',
  });

  it(`uploads all of ${LOGS} logs through 10% 500s, 5% dropped answers and a 429 storm, duplicating only after uncertain attempts`, async () => {
    const { harness, db } = suite;
    const faults = harness.simulator.state.faults;
    faults.set({ errorRate: 0.1, dropAfterProcessRate: 0.05, paths: ['/capi/v3/order/uploadAiLog'] });
    const started = Date.now();
    const logs = Array.from({ length: LOGS }, (_, n) => `{"stage":"s","model":"m","input":{"n":${n}},"output":{},"explanation":""}`);
    const res = await fetch(`${harness.apiUrl}/v1/ai-logs/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: `{"logs":[${logs.join(',')}]}`,
    });
    expect(res.status).toBe(207);
    const count = async (sql: string) => Number((await db.query(sql)).rows[0].count);
    await waitFor(
      'a third of the logs',
      async () => ((await count(`SELECT count(*) FROM ai_logs WHERE status = 'uploaded'`)) > LOGS / 3 ? true : undefined),
      60_000,
    );
    faults.set({ rateLimitStorm: { durationMs: 2_000 }, paths: ['/capi/v3/order/uploadAiLog'] });
    await waitFor(
      'the storm to pass',
      async () => ((await count(`SELECT count(*) FROM upload_attempts WHERE http_status = 429`)) > 0 ? true : undefined),
      30_000,
    );
    faults.set({ errorRate: 0.1, dropAfterProcessRate: 0.05, paths: ['/capi/v3/order/uploadAiLog'] });
    await waitFor(
      'every log to be uploaded',
      async () => ((await count(`SELECT count(*) FROM ai_logs WHERE status = 'uploaded'`)) === LOGS ? true : undefined),
      120_000,
    );
    const counts = harness.simulator.state.faults.counts();
    const uncertain = await count(`SELECT count(*) FROM upload_attempts WHERE outcome = 'uncertain'`);
    const seen = new Map<string, number>();
    for (const u of harness.simulator.state.uploads()) seen.set(u.rawBody, (seen.get(u.rawBody) ?? 0) + 1);
    const duplicates = [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
    console.log(
      `upload-faults: ${LOGS} logs, faults ${JSON.stringify(counts)}, 0 lost, ${duplicates} duplicates, ${uncertain} uncertain attempts, ${Date.now() - started} ms`,
    );
    expect(seen.size).toBe(LOGS);
    expect(duplicates).toBeLessThanOrEqual(uncertain);
    expect(counts.error500).toBeGreaterThan(0);
    expect(counts.droppedAfterProcess).toBeGreaterThan(0);
  }, 240_000);
});
