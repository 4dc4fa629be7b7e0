import { SANDBOX_UID, SIM_WINDOW, simWindow, TARGETS, UPLOAD_BUDGET, UPLOAD_LOGS } from '../settings.mjs';
import { pct, windowShares } from '../support/budget-windows.mjs';
import { mb } from '../support/format.mjs';
import { AUTH, Cleanup, gatewayEnvironment, startApi, startSimulator, startWorker } from '../support/gateway.mjs';
import { batchText } from '../support/payload.mjs';
import { poll, RssSampler } from '../support/processes.mjs';

export const title = `Uploads against a budget of ${UPLOAD_BUDGET.uidLimit} per ${UPLOAD_BUDGET.windowMs / 1000} s (one account, one worker process)`;

/**
 * The simulator allows the account UPLOAD_BUDGET and the gateway is configured with the same; UPLOAD_LOGS logs wait
 * in the queue before the worker starts. How much of each window's budget the worker spends shows whether its pacing
 * wastes budget; any 429 shows that it overspends.
 */
export async function run() {
  const cleanup = new Cleanup();
  if (UPLOAD_LOGS < 3 * UPLOAD_BUDGET.uidLimit) console.warn(`  BENCH_UPLOAD_LOGS=${UPLOAD_LOGS} spans fewer than 3 windows: no full window to measure`);
  try {
    const sim = await startSimulator(cleanup);
    await sim.control('PUT', '/__sim/budgets', {
      windowMs: UPLOAD_BUDGET.windowMs,
      ...simWindow(),
      accounts: { [SANDBOX_UID]: { uidLimit: UPLOAD_BUDGET.uidLimit } },
    });
    const gateway = await gatewayEnvironment(cleanup, {
      ...sim.weexEnv,
      WEEX_UID_WEIGHT_LIMIT: String(UPLOAD_BUDGET.uidLimit),
      WEEX_WEIGHT_WINDOW_MS: String(UPLOAD_BUDGET.windowMs),
      // Evidence sync spends the same UID budget; turned off so that the run measures upload pacing alone.
      EVIDENCE_SYNC_INTERVAL_MS: '0',
    });
    const api = await startApi(cleanup, gateway.env);
    for (let posted = 0; posted < UPLOAD_LOGS; posted += 100) {
      const n = Math.min(100, UPLOAD_LOGS - posted);
      const res = await fetch(`${api.url}/v1/ai-logs/batch`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: batchText(n) });
      if (res.status !== 207) throw new Error(`batch answered ${res.status}: ${await res.text()}`);
    }
    await api.stop();

    const worker = startWorker(cleanup, gateway.env);
    const rss = new RssSampler(worker.pid);
    cleanup.defer(async () => rss.stop());
    const windows = Math.ceil(UPLOAD_LOGS / UPLOAD_BUDGET.uidLimit);
    const statuses = await poll('every log uploaded', (windows + 4) * UPLOAD_BUDGET.windowMs * 2, async () => {
      if (!worker.running) throw new Error(`worker exited:\n${worker.output}`);
      const { rows } = await gateway.database.query('SELECT status::text, count(*)::int AS n FROM ai_logs GROUP BY status');
      const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]));
      return byStatus.uploaded === UPLOAD_LOGS || byStatus.failed ? byStatus : undefined;
    });
    const workerPeakMb = rss.maxBetween(0);
    const { uploads } = await sim.control('GET', `/__sim/uploads?uid=${SANDBOX_UID}`);
    const stats = await sim.control('GET', '/__sim/stats');
    const pacing = windowShares(
      uploads.map((u) => u.receivedAt),
      { limit: UPLOAD_BUDGET.uidLimit, windowMs: UPLOAD_BUDGET.windowMs },
    );
    const refused = stats.weight.refused429;
    const uid = stats.weight.byUid[SANDBOX_UID] ?? { used: 0, refused429: 0 };
    return {
      // Paced by the budget: the rate over whole windows.
      throughput: (pacing.meanShare * UPLOAD_BUDGET.uidLimit) / (UPLOAD_BUDGET.windowMs / 1000),
      unit: 'uploads/s',
      p50: NaN,
      p99: NaN,
      rssMb: workerPeakMb,
      summary: `${SIM_WINDOW} windows: budget used: ${pct(pacing.meanShare)} of ${UPLOAD_BUDGET.uidLimit}/window; 429s: ${refused}`,
      targets: [
        { text: `≥ ${pct(TARGETS.budgetShare)} of budget`, pass: pacing.meanShare >= TARGETS.budgetShare }, // NaN: a miss
        { text: 'zero 429s', pass: refused === 0 },
        { text: `≤ ${UPLOAD_BUDGET.uidLimit} in any ${UPLOAD_BUDGET.windowMs / 1000} s span`, pass: pacing.mostInSpan <= UPLOAD_BUDGET.uidLimit },
      ],
      details: [
        `${UPLOAD_LOGS} logs queued, then one worker (UPLOAD_CONCURRENCY default 8); logs by status at the end: ${JSON.stringify(statuses)}`,
        `simulator: ${uploads.length} uploads recorded, UID weight used ${uid.used}, 429s ${refused} (UID ${uid.refused429}), rejections ${stats.rejections}`,
        `uploads per ${UPLOAD_BUDGET.windowMs / 1000} s window of the simulator clock: ${pacing.counts.join(', ')}; ` +
          `share of the budget over the ${pacing.full.length} full window(s) (first and last are partial): ${pct(pacing.share)}; in a span on average: ${pct(pacing.meanShare)}`,
        `first to last upload: ${(pacing.spanMs / 1000).toFixed(1)} s (${pacing.perSecond.toFixed(1)} uploads/s over that span); ` +
          `first to last upload within each full window: ${pacing.bursts.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ') || 'n/a'}; ` +
          `most uploads in any ${UPLOAD_BUDGET.windowMs / 1000} s span (what a sliding-window exchange counts): ${pacing.mostInSpan}`,
        `worker RSS peak during the run: ${mb(workerPeakMb)}`,
      ],
    };
  } finally {
    await cleanup.run();
  }
}
