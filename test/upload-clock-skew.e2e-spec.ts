import { postLog, viewLog } from './support/ai-log-requests.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-clock-skew-tests';
const ADMIN = 'admin-token-for-clock-skew-tests';
const UPLOAD = '/capi/v3/order/uploadAiLog';

describe('an upload whose timestamp is refused again after a clock resync', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, ADMIN_TOKEN: ADMIN, UPLOAD_BACKOFF_MS: '50', UPLOAD_BACKOFF_MAX_MS: '200', RELAY_INTERVAL_MS: '500' });

  it('is retried with backoff as a clock problem, never failed as `auth`, and the clock offset is in the metrics and the status', async () => {
    const { harness: h } = suite;
    const faults = h.simulator.state.faults;
    // The signature check runs 2 minutes ahead of the time the exchange serves: resyncing does not help.
    faults.set({ clockSkewMs: 120_000, paths: [UPLOAD] });
    const id = await postLog(h, KEY);
    const held = await waitFor('three refused attempts', async () => {
      const view = await viewLog(h, KEY, id);
      return view.attempts.length >= 3 ? view : undefined;
    });
    expect(held.status).not.toBe('failed');
    expect(held.lastError).toMatch(/^transient: .*again after a clock resync \(clock offset -?\d+ ms\)/);
    for (const attempt of held.attempts.slice(0, 3)) expect(attempt).toMatchObject({ outcome: 'retryable', httpStatus: 400, exchangeCode: '-1046' });

    const metrics = await (await fetch(`${h.apiUrl}/metrics`)).text();
    expect(metrics).toMatch(/^gateway_weex_clock_offset_seconds\{account="default"\} -?\d/m);
    const status: any = await (await fetch(`${h.apiUrl}/admin/accounts/default/status`, { headers: { authorization: `Bearer ${ADMIN}` } })).json();
    expect(status.clockOffsetMs).toEqual(expect.any(Number));

    faults.clear();
    await waitFor('the log to be uploaded', async () => ((await viewLog(h, KEY, id)).status === 'uploaded' ? true : undefined));
    expect(h.simulator.state.uploads()).toHaveLength(1);
  }, 60_000);
});
