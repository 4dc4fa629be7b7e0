import { setImmediate as turn } from 'node:timers/promises';
import { AuditChainCheck } from '#libs/audit';
import { ChainWalker } from '#libs/audit-chain';
import { gatewaySuite } from './support/gateway-suite.js';
import { waitFor } from './support/wait-for.js';

const KEY = 'agent-key-for-audit-check-turns';
const LOGS = 3_000;

async function postLogs(apiUrl: string, count = LOGS, first = 0): Promise<void> {
  for (let from = first; from < first + count; from += 500) {
    const logs = Array.from({ length: 500 }, (_, i) => `{"stage":"s","model":"m","input":{"n":${from + i}},"output":{},"explanation":"e"}`);
    const res = await fetch(`${apiUrl}/v1/ai-logs/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: `{"logs":[${logs.join(',')}]}`,
    });
    expect(res.status).toBe(207);
  }
}

/**
 * The periodic audit check runs in the upload worker. Verified a page of 1,000 links at a time, it held the event loop
 * tens of milliseconds per page, every step of every upload waited behind it, and the drain fell to 1-3 uploads/s
 * while a long check ran (bench scenario 9). It now gives the loop a turn every few dozen links.
 */
describe('the audit check shares the worker’s event loop', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: KEY, AUDIT_CHECK_INTERVAL_MS: '3600000', AGENT_RATE_LIMIT_PER_MIN: '1000000' });

  it('verifies at most 50 links between two turns of the event loop', async () => {
    await postLogs(suite.harness.apiUrl);
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

/**
 * A periodic run verifies AUDIT_CHECK_LINKS_PER_MIN for the time since the account's last run: as a full run every
 * minute, the check caught up on a large ingest in 8-12 s that halved the upload drain (bench scenario 9).
 */
describe('the periodic audit check takes a steady share of the worker', () => {
  const suite = gatewaySuite({
    AGENT_API_KEY: KEY,
    AUDIT_CHECK_INTERVAL_MS: '1000',
    AUDIT_CHECK_LINKS_PER_MIN: '50000',
    AUDIT_CHECKPOINT_INTERVAL_MS: '3600000',
    AGENT_RATE_LIMIT_PER_MIN: '1000000',
  });

  it('verifies the links per minute for the time since its last run, and gets to the head run by run', async () => {
    // Each run as it saves its frontier: runs of one account never overlap (a lease), so these are in order. A run
    // given a rate is a periodic one; the others (a checkpoint's at start) do a full run.
    const check = suite.harness.gateway.worker!.get(AuditChainCheck);
    const run = check.run.bind(check);
    const runs: Array<{ periodic: boolean; seq: number; start: number; end: number }> = [];
    check.run = async (...args) => {
      const start = Date.now();
      const view = await run(...args);
      if (view.runningSince === null) runs.push({ periodic: !!args[1]?.linksPerMinute, seq: Number(view.logs.verifiedSeq), start, end: Date.now() });
      return view;
    };
    const reach = (seq: number) => waitFor(`a run to reach seq ${seq}`, async () => (runs.at(-1)?.seq === seq ? true : undefined), 60_000);
    // The account's first run has no last run to measure from: a full run.
    await postLogs(suite.harness.apiUrl, 500);
    await reach(500);
    const before = runs.length;
    await postLogs(suite.harness.apiUrl, LOGS, 500);
    await reach(500 + LOGS);
    // A run's rate covers the time since the last one saved: no more than from the last one's start to its own end.
    const steps = runs.slice(before).map((r, i) => ({ ...r, step: r.seq - runs[before + i - 1].seq, since: r.end - runs[before + i - 1].start }));
    expect(steps.every((r) => r.periodic)).toBe(true);
    expect(steps.filter((r) => r.step > 0).length).toBeGreaterThanOrEqual(3);
    for (const r of steps) expect(r.step).toBeLessThanOrEqual(Math.ceil((50_000 * r.since) / 60_000));
  }, 120_000);
});
