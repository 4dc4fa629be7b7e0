import { closedPort } from './support/closed-port.js';
import { startHarness, type Harness } from './support/gateway-harness.js';
import { REDIS_URL } from './support/services.js';
import { createTempDatabase } from './support/temp-database.js';
import { waitFor } from './support/wait-for.js';

const json = (res: Response): Promise<any> => res.json();

const LOG = '{"stage":"decision","model":"m","input":{"a":1},"output":{"b":2},"explanation":"why"}';

/** Runs one gateway with the given WEEX settings against a simulator of its own, on PostgreSQL and Redis. */
async function withGateway(env: Record<string, string>, body: (h: Harness) => Promise<void>): Promise<void> {
  const db = await createTempDatabase();
  const harness = await startHarness({ DATABASE_URL: db.url, REDIS_URL, AGENT_API_KEY: 'agent-key-for-outcome-tests', ...env });
  try {
    await body(harness);
  } finally {
    await harness.close();
    await db.drop();
  }
}

async function postAndWait(h: Harness, status: string): Promise<any> {
  const headers = { authorization: 'Bearer agent-key-for-outcome-tests', 'content-type': 'application/json' };
  const res = await fetch(`${h.apiUrl}/v1/ai-logs`, { method: 'POST', headers, body: LOG });
  expect(res.status).toBe(202);
  const { id } = await json(res);
  return waitFor(`log ${id} to be ${status}`, async () => {
    const view = await json(await fetch(`${h.apiUrl}/v1/ai-logs/${id}`, { headers }));
    return view.status === status ? view : undefined;
  });
}

describe('upload outcomes', () => {
  it('ends `failed` after one attempt for an account that is not on the AI-log allowlist', async () => {
    const credentials = {
      WEEX_API_KEY: 'sim-key-not-allowlisted',
      WEEX_API_SECRET: 'sim-secret-not-allowlisted',
      WEEX_API_PASSPHRASE: 'sim-pass-not-allowlisted',
    };
    await withGateway(credentials, async (h) => {
      const view = await postAndWait(h, 'failed');
      expect(view.lastError).toMatch(/^permission: /);
      expect(view.attempts).toEqual([expect.objectContaining({ outcome: 'permanent', httpStatus: 403, exchangeCode: '-1051' })]);
      // Configured with credentials, the gateway is in live mode, yet it reports who actually answered.
      expect(view.target).toBe('simulator');
      expect(h.simulator.state.uploads()).toHaveLength(0);
    });
  }, 60_000);

  it('ends `failed` with the exchange code when the credentials are wrong', async () => {
    const credentials = { WEEX_API_KEY: 'sandbox-api-key', WEEX_API_SECRET: 'wrong-secret', WEEX_API_PASSPHRASE: 'sandbox-passphrase' };
    await withGateway(credentials, async (h) => {
      const view = await postAndWait(h, 'failed');
      expect(view.lastError).toMatch(/^auth: /);
      expect(view.attempts).toEqual([expect.objectContaining({ httpStatus: 401, exchangeCode: '-1047' })]);
    });
  }, 60_000);

  it('keeps retrying while the exchange is unreachable, and records each attempt', async () => {
    await withGateway({ WEEX_BASE_URL: `http://127.0.0.1:${await closedPort()}`, UPLOAD_BACKOFF_MS: '20', UPLOAD_BACKOFF_MAX_MS: '50' }, async (h) => {
      const headers = { authorization: 'Bearer agent-key-for-outcome-tests', 'content-type': 'application/json' };
      const { id } = await json(await fetch(`${h.apiUrl}/v1/ai-logs`, { method: 'POST', headers, body: LOG }));
      const view = await waitFor('two failed attempts', async () => {
        const v = await json(await fetch(`${h.apiUrl}/v1/ai-logs/${id}`, { headers }));
        return v.attempts.length >= 2 ? v : undefined;
      });
      expect(['retrying', 'uploading']).toContain(view.status);
      expect(view.lastError).toMatch(/^unavailable: could not connect/);
      expect(view.attempts[0]).toMatchObject({ outcome: 'retryable', httpStatus: null });
    });
  }, 60_000);

  it('ends `failed` once retrying would go past the retry horizon', async () => {
    const env = {
      WEEX_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      UPLOAD_BACKOFF_MS: '100',
      UPLOAD_BACKOFF_MAX_MS: '400',
      // Counted from acceptance: long enough that a slow first attempt still leaves room for more.
      UPLOAD_RETRY_HORIZON_MS: '4000',
    };
    await withGateway(env, async (h) => {
      const view = await postAndWait(h, 'failed');
      expect(view.lastError).toMatch(/^unavailable: .*over the retry horizon/);
      expect(view.attempts.length).toBeGreaterThan(1);
      expect(view.attempts.every((a: { outcome: string }) => a.outcome === 'retryable')).toBe(true);
    });
  }, 60_000);
});
