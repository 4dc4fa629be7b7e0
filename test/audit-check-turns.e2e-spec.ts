import { setImmediate as turn } from 'node:timers/promises';
import { AuditChainCheck } from '#libs/audit';
import { ChainWalker } from '#libs/audit-chain';
import { gatewaySuite } from './support/gateway-suite.js';

const KEY = 'agent-key-for-audit-check-turns';
const LOGS = 3_000;

/**
 * The periodic audit check runs in the upload worker. Verified a page of 1,000 links at a time, it held the event loop
 * tens of milliseconds per page, every step of every upload waited behind it, and the drain fell to 1-3 uploads/s
 * while a long check ran (bench scenario 9). It now gives the loop a turn every few dozen links.
 */
describe('the audit check shares the worker’s event loop', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, AUDIT_CHECK_INTERVAL_MS: '3600000', AGENT_RATE_LIMIT_PER_MIN: '1000000' });

  it('verifies at most 50 links between two turns of the event loop', async () => {
    for (let from = 0; from < LOGS; from += 500) {
      const logs = Array.from({ length: 500 }, (_, i) => `{"stage":"s","model":"m","input":{"n":${from + i}},"output":{},"explanation":"e"}`);
      const res = await fetch(`${suite.harness.apiUrl}/v1/ai-logs/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: `{"logs":[${logs.join(',')}]}`,
      });
      expect(res.status).toBe(207);
    }
    // Links verified since another task last had a turn, counted where the check verifies each one.
    let sinceTurn = 0;
    let most = 0;
    const link = ChainWalker.prototype.link;
    ChainWalker.prototype.link = function (this: ChainWalker, ...args: Parameters<typeof link>) {
      most = Math.max(most, ++sinceTurn);
      return link.apply(this, args);
    };
    let running = true;
    const other = (async () => {
      while (running) {
        await turn();
        sinceTurn = 0;
      }
    })();
    try {
      const view = await suite.harness.gateway.worker!.get(AuditChainCheck).run('default');
      expect(view).toMatchObject({ ok: true, logs: { verifiedSeq: String(LOGS) } });
    } finally {
      running = false;
      await other;
      ChainWalker.prototype.link = link;
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(50);
  }, 120_000);
});
