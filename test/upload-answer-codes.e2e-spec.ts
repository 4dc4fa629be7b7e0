import { postLog, viewLog } from './support/ai-log-requests.js';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-answer-code-tests';
const UPLOAD = '/capi/v3/order/uploadAiLog';

describe('an upload answered 200 without a success code', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, UPLOAD_BACKOFF_MS: '50', UPLOAD_BACKOFF_MAX_MS: '200', RELAY_INTERVAL_MS: '500' });

  it.each(['{}', '{"success":false}', 'true', '<!DOCTYPE html><html><body>OK</body></html>'])(
    'is recorded `uncertain` and retried for %s, and uploaded once the exchange answers with its code',
    async (body) => {
      const { harness: h } = suite;
      const faults = h.simulator.state.faults;
      faults.set({ answerWithoutCode: body, paths: [UPLOAD] });
      const id = await postLog(h, KEY, body.length);
      const held = await waitFor('two uncertain attempts', async () => {
        const view = await viewLog(h, KEY, id);
        return view.attempts.length >= 2 ? view : undefined;
      });
      expect(held.status).not.toBe('uploaded');
      expect(held.uploadedAt ?? null).toBeNull();
      expect(held.attempts.slice(0, 2)).toEqual([
        expect.objectContaining({ outcome: 'uncertain', httpStatus: 200, exchangeCode: null }),
        expect.objectContaining({ outcome: 'uncertain', httpStatus: 200, exchangeCode: null }),
      ]);
      expect(held.attempts[0].exchangeMessage).toMatch(/without a success code|not JSON/);
      faults.clear();
      const done = await waitFor('the log to be uploaded', async () => {
        const view = await viewLog(h, KEY, id);
        return view.status === 'uploaded' ? view : undefined;
      });
      expect(done.attempts.at(-1)).toMatchObject({ outcome: 'uploaded', httpStatus: 200, exchangeCode: '0' });
      expect(h.simulator.state.uploads().filter((u) => u.rawBody.includes(`"n":${body.length}}`))).toHaveLength(1);
    },
    60_000,
  );
});
