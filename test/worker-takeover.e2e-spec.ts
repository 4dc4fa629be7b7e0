import { randomBytes } from 'node:crypto';
import { gatewaySuite } from './support/gateway-suite.js';
import { REDIS_URL } from './support/services.js';
import { waitFor } from './support/wait-for.js';
import { WorkerProcess } from './support/worker-process.js';

const KEY = 'agent-key-for-worker-takeover-tests';
const UPLOAD_PATH = '/capi/v3/order/uploadAiLog';

/**
 * A claim is a short lease that a live worker renews while its upload is in flight (UPLOAD_CLAIM_MS, 5 s): a slow
 * upload keeps its claim, and a dead worker's claims, and the drain job that holds its account, lapse within seconds.
 */
describe('claims held by leases', () => {
  const prefix = `takeover-${randomBytes(4).toString('hex')}`;
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, QUEUE_PREFIX: prefix }, { worker: false });
  let workerEnv: Record<string, string>;

  beforeAll(() => {
    const { simulator, gateway } = suite.harness;
    workerEnv = {
      AGENT_API_KEY: KEY,
      QUEUE_PREFIX: prefix,
      DATABASE_URL: gateway.runtime.databaseUrl,
      REDIS_URL,
      WEEX_BASE_URL: simulator.url,
      LOG_LEVEL: 'warn',
    };
  });
  afterEach(() => suite.harness.simulator.state.faults.set({}));

  const post = async (n: number, tag: string) => {
    const logs = Array.from({ length: n }, (_, i) => `{"stage":"${tag}","model":"m","input":{"n":${i}},"output":{},"explanation":""}`);
    const res = await fetch(`${suite.harness.apiUrl}/v1/ai-logs/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: `{"logs":[${logs.join(',')}]}`,
    });
    expect(res.status).toBe(207);
  };
  const counts = async (tag: string) =>
    (
      await suite.db.query(
        `SELECT count(*) FILTER (WHERE l.status = 'uploaded')::int AS uploaded, count(*) FILTER (WHERE l.status = 'uploading')::int AS uploading,
           (SELECT count(*)::int FROM upload_attempts a JOIN ai_logs x ON x.id = a.log_id WHERE x.stage = $1 AND a.outcome = 'uncertain') AS uncertain,
           (SELECT count(*)::int FROM upload_attempts a JOIN ai_logs x ON x.id = a.log_id WHERE x.stage = $1) AS attempts
         FROM ai_logs l WHERE l.stage = $1`,
        [tag],
      )
    ).rows[0] as { uploaded: number; uploading: number; uncertain: number; attempts: number };

  it('keeps the claim of an upload slower than three leases: one attempt each, none uncertain', async () => {
    // Leases of 1.5 s and an exchange that answers after 4.5 s: without renewals every claim would lapse mid-upload.
    suite.harness.simulator.state.faults.set({ latencyMs: 4_500, paths: [UPLOAD_PATH] });
    const worker = WorkerProcess.start({ ...workerEnv, UPLOAD_CLAIM_MS: '1500', RELAY_INTERVAL_MS: '300' });
    try {
      await post(4, 'slow');
      await waitFor('the slow uploads', async () => ((await counts('slow')).uploaded === 4 ? true : undefined), 60_000);
    } finally {
      await worker.stop('SIGTERM');
    }
    expect(await counts('slow')).toEqual({ uploaded: 4, uploading: 0, uncertain: 0, attempts: 4 });
  }, 90_000);

  it('hands a SIGKILLed worker’s claims and account to another worker within a few leases, on the default settings', async () => {
    suite.harness.simulator.state.faults.set({ latencyMs: 1_000, paths: [UPLOAD_PATH] });
    const first = WorkerProcess.start(workerEnv);
    await post(16, 'kill');
    await waitFor('uploads in flight', async () => ((await counts('kill')).uploading > 0 ? true : undefined), 60_000);
    await first.stop('SIGKILL');
    const killedAt = Date.now();
    const second = WorkerProcess.start(workerEnv);
    try {
      // With the old 60 s claims the dead worker's logs waited a minute; leases of 5 s and a relay every 2 s take them
      // over within about 8 s. 30 s leaves room for a loaded machine, and none for the old claims.
      await waitFor('every log uploaded by the second worker', async () => ((await counts('kill')).uploaded === 16 ? true : undefined), 30_000);
    } finally {
      await second.stop('SIGTERM');
    }
    console.log(`worker-takeover: 16 logs uploaded ${Date.now() - killedAt} ms after the SIGKILL`);
    const after = await counts('kill');
    expect(after.uncertain).toBeGreaterThan(0);
    expect(after.uploading).toBe(0);
    // The uncertain attempt names where the upload went, as the others do (the simulator, in sandbox mode).
    const { rows } = await suite.db.query(
      `SELECT DISTINCT a.target FROM upload_attempts a JOIN ai_logs l ON l.id = a.log_id WHERE l.stage = 'kill' ORDER BY a.target`,
    );
    expect(rows).toEqual([{ target: 'simulator' }]);
  }, 120_000);
});
