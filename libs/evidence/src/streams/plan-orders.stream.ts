import { DAY_MS, MINUTE_MS, oldestTime, runStart, windowsBetween } from '../time-windows.js';
import { OVERLAP_MS, type StreamRun } from './stream-run.js';

const PAGE = 1000;
/** allAlgoOrders: endTime within 90 days of startTime (with a minute's margin). */
const WINDOW_MS = 90 * DAY_MS - MINUTE_MS;

/**
 * algoStatus values after which a plan order no longer changes. The spec lists none; these are the simulator's and
 * Binance's spellings [G]. A plan order in any other state may still trigger (and gain its actualOrderId).
 */
export const FINAL_ALGO_STATUSES: readonly string[] = ['TRIGGERED', 'CANCELED', 'CANCELLED', 'EXPIRED', 'FAILED', 'REJECTED', 'FINISHED'];

/**
 * Plan orders by creation time, from where the last run got to, or from the oldest stored plan order that can still
 * change (it triggers long after it was created), whichever is older; never before the lookback. Each window is read
 * newest first; while `hasMore`, the window's end narrows to the oldest creation time seen.
 */
export async function syncPlanOrders(run: StreamRun): Promise<void> {
  let from = runStart(run.syncedUntil, run.now, run.lookbackMs, OVERLAP_MS);
  const oldestLive = await run.store.oldestLivePlanOrder(run.accountId, FINAL_ALGO_STATUSES);
  if (oldestLive !== undefined) from = Math.max(run.now - run.lookbackMs, Math.min(from, oldestLive));
  for (const window of windowsBetween(from, run.now, WINDOW_MS)) {
    let end = window.end;
    for (;;) {
      const { orders, hasMore } = await run.client.algoOrders({ startTime: window.start, endTime: end, limit: PAGE }, { signal: run.signal });
      run.rows += await run.store.upsertPlanOrders(run.accountId, orders);
      if (!hasMore || orders.length === 0) break;
      const oldest = oldestTime(
        orders.map((p) => p.createTime),
        end,
        'allAlgoOrders',
      );
      if (oldest < end) {
        end = oldest;
        continue;
      }
      // A whole page created within one millisecond: step past it rather than ask the same question forever.
      run.log.warn(`${PAGE} or more plan orders created at ${new Date(end).toISOString()} (account ${run.accountId}): some may be missing`);
      if (end <= window.start) break;
      end -= 1;
    }
    await run.advance(window.end);
  }
}
