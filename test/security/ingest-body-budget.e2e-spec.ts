import { gatewaySuite } from '../support/gateway-suite.js';

// A budget smaller than one of the bodies below: the API parses them one at a time, and every sender still gets its
// answer, once.
const suite = gatewaySuite({ BODY_BYTES_IN_FLIGHT: '65536' });
const log = (i: number, bytes: number) =>
  JSON.stringify({ stage: 'decision', model: 'm', input: { i, blob: 'x'.repeat(bytes) }, output: {}, explanation: `budget ${i}` });

describe('request bodies beyond BODY_BYTES_IN_FLIGHT wait their turn', () => {
  it('answers every one of 40 concurrent 200 KB logs 202 and commits each once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${suite.harness!.apiUrl}/v1/ai-logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${suite.harness!.agentKey}`, 'content-type': 'application/json' },
          body: log(i, 200_000),
        }).then((res) => res.status),
      ),
    );
    expect(answers).toEqual(Array(40).fill(202));
    const { rows } = await suite.db.query(
      `SELECT count(*)::int AS n, count(DISTINCT explanation)::int AS distinct FROM ai_logs WHERE explanation LIKE 'budget %'`,
    );
    expect(rows[0]).toEqual({ n: 40, distinct: 40 });
  });

  it('gives back the bytes of a sender that went away: the next bodies still pass', async () => {
    const gone = Array.from({ length: 10 }, (_, i) => {
      const controller = new AbortController();
      const sent = fetch(`${suite.harness!.apiUrl}/v1/ai-logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${suite.harness!.agentKey}`, 'content-type': 'application/json' },
        body: log(100 + i, 200_000),
        signal: controller.signal,
      }).catch(() => 'aborted');
      setImmediate(() => controller.abort());
      return sent;
    });
    await Promise.all(gone);
    const after = await fetch(`${suite.harness.apiUrl}/v1/ai-logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.harness.agentKey}`, 'content-type': 'application/json' },
      body: log(200, 200_000),
      signal: AbortSignal.timeout(30_000),
    });
    expect(after.status).toBe(202);
  });
});
