import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { postLog, viewLog } from './support/ai-log-requests.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-ip-hold-tests';
const ADMIN = 'admin-token-for-ip-hold-tests';
const LOGS = 4;
const HORIZON_MS = 2_000;
// Fast retries and a short retry horizon: a 521 that burned it would fail every log within two seconds.
const ENV = {
  AGENT_API_KEY: KEY,
  ADMIN_TOKEN: ADMIN,
  UPLOAD_BACKOFF_MS: '50',
  UPLOAD_BACKOFF_MAX_MS: '100',
  UPLOAD_RETRY_HORIZON_MS: String(HORIZON_MS),
  RELAY_INTERVAL_MS: '200',
};

const admin = async (base: string, path: string, method = 'GET'): Promise<any> =>
  (await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}` } })).json();
const pausedGauge = async (base: string, reason: string): Promise<string | undefined> =>
  (await (await fetch(`${base}/metrics`)).text()).match(
    new RegExp(`^gateway_account_uploads_paused\\{account="default",reason="${reason}"\\} (\\d)$`, 'm'),
  )?.[1];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Posts LOGS logs while the exchange answers 521, and waits for the hold; checks what the operator sees. */
async function holdFor521(base: string, h: Parameters<typeof postLog>[0]): Promise<string[]> {
  h.simulator.state.faults.set({ ipNotAllowed: true });
  const ids: string[] = [];
  for (let n = 0; n < LOGS; n++) ids.push(await postLog(h, KEY, n));
  const status = await waitFor('the account to be held', async () => {
    const s = await admin(base, '/admin/accounts/default/status');
    return s.pauseReason === 'ip_not_allowlisted' ? s : undefined;
  });
  expect(status).toMatchObject({ paused: true, pausedAt: expect.any(String) });
  expect(await pausedGauge(base, 'ip_not_allowlisted')).toBe('1');
  expect(await pausedGauge(base, 'admin')).toBe('0');
  // Past the retry horizon, every log still waits: none failed, none hammered the exchange.
  await sleep(HORIZON_MS + 500);
  const views = await Promise.all(ids.map((id) => viewLog(h, KEY, id)));
  for (const view of views) {
    expect(['queued', 'retrying']).toContain(view.status);
    for (const attempt of view.attempts) expect(attempt).toMatchObject({ outcome: 'retryable', httpStatus: 521 });
  }
  expect(views.reduce((n, v) => n + v.attempts.length, 0)).toBeLessThanOrEqual(LOGS);
  return ids;
}

async function allUploaded(h: Parameters<typeof postLog>[0], ids: string[]): Promise<void> {
  await waitFor('every log to be uploaded', async () => {
    const views = await Promise.all(ids.map((id) => viewLog(h, KEY, id)));
    return views.every((v) => v.status === 'uploaded') ? true : undefined;
  });
}

describe('uploads answered HTTP 521 (IP not allowlisted)', () => {
  describe('resumed by the probe', () => {
    const suite = gatewaySuite({ ...ENV, UPLOAD_HOLD_PROBE_MS: '300' });

    it('holds the account with an ALERT, fails no log, and resumes once the exchange answers again', async () => {
      const { harness: h } = suite;
      const alerts = jest.spyOn(Logger.prototype, 'error');
      const ids = await holdFor521(h.apiUrl, h);
      const alert = alerts.mock.calls.map((call) => String(call[0])).filter((m) => m.startsWith('ALERT account default: uploads held (ip_not_allowlisted)'));
      expect(alert).toHaveLength(1);
      expect(alert[0]).not.toMatch(/sandbox-api-secret|sandbox-passphrase|ACCESS-SIGN/);
      alerts.mockRestore();
      // Still blocked: the probe keeps the hold.
      await sleep(700);
      expect((await admin(h.apiUrl, '/admin/accounts/default/status')).pauseReason).toBe('ip_not_allowlisted');

      h.simulator.state.faults.clear();
      await allUploaded(h, ids);
      expect(await admin(h.apiUrl, '/admin/accounts/default/status')).toMatchObject({ paused: false, pauseReason: null });
      expect(await pausedGauge(h.apiUrl, 'ip_not_allowlisted')).toBe('0');
      expect(h.simulator.state.uploads()).toHaveLength(LOGS);

      // An admin's pause is the admin's: the probe does not lift it.
      expect(await admin(h.apiUrl, '/admin/accounts/default/pause', 'POST')).toMatchObject({ paused: true, pauseReason: 'admin' });
      await sleep(700);
      expect(await admin(h.apiUrl, '/admin/accounts/default/status')).toMatchObject({ paused: true, pauseReason: 'admin' });
      expect(await admin(h.apiUrl, '/admin/accounts/default/resume', 'POST')).toMatchObject({ paused: false, pauseReason: null });
    }, 60_000);
  });

  describe('resumed by an admin', () => {
    const suite = gatewaySuite({ ...ENV, UPLOAD_HOLD_PROBE_MS: '3600000' });

    it('uploads the held logs after POST /admin/accounts/:id/resume, the time held not counted against their horizon', async () => {
      const { harness: h } = suite;
      const ids = await holdFor521(h.apiUrl, h);
      // Received more than a horizon ago, the logs meet a passing outage after the resume: still retried, not failed.
      h.simulator.state.faults.set({ errorRate: 1, paths: ['/capi/v3/order/uploadAiLog'] });
      expect(await admin(h.apiUrl, '/admin/accounts/default/resume', 'POST')).toMatchObject({ paused: false, pauseReason: null, retriesDueNow: 0 });
      const views = await waitFor('a 500 for every log', async () => {
        const all = await Promise.all(ids.map((id) => viewLog(h, KEY, id)));
        return all.every((v) => v.attempts.some((a: { httpStatus: number }) => a.httpStatus === 500)) ? all : undefined;
      });
      for (const view of views) expect(view.status).not.toBe('failed');
      h.simulator.state.faults.clear();
      await allUploaded(h, ids);
    }, 60_000);
  });
});
