import type { Trade } from '#libs/weex-client';
import { DAY_MS, HOUR_MS, MINUTE_MS, oldestTime, runStart, windowsBetween } from '../time-windows.js';
import { OVERLAP_MS, type StreamRun } from './stream-run.js';

/** userTrades: at most 100 per call, newest first, no paging; a window of at most 7 days, at most 365 days back. */
const PAGE = 100;
const WINDOW_MS = 7 * DAY_MS - MINUTE_MS;
const MAX_AGE_MS = 365 * DAY_MS - HOUR_MS;

/**
 * Fills from where the last run got to (or the lookback) up to now, in 7-day windows, oldest window first. The
 * exchange has no paging for fills, so a full page is followed by the same query with its end narrowed to the oldest
 * fill seen, until a page comes back short.
 */
export async function syncTrades(run: StreamRun): Promise<void> {
  const from = Math.max(runStart(run.syncedUntil, run.now, run.lookbackMs, OVERLAP_MS), run.now - MAX_AGE_MS);
  for (const window of windowsBetween(from, run.now, WINDOW_MS)) {
    await tradesIn(run, window.start, window.end);
    await run.advance(window.end);
  }
}

async function tradesIn(run: StreamRun, start: number, end: number): Promise<void> {
  let upper = end;
  for (;;) {
    const page = await run.client.userTrades({ startTime: start, endTime: upper, limit: PAGE }, { signal: run.signal });
    run.rows += await run.store.upsertTrades(run.accountId, page);
    if (page.length < PAGE) return;
    const oldest = oldestTime(
      page.map((t) => t.time),
      upper,
      'userTrades',
    );
    // The fills at `oldest` may go on past the page: the next query ends there, inclusive, and reads them again.
    if (oldest < upper) {
      upper = oldest;
      continue;
    }
    // A whole page within one millisecond: narrowing cannot step past it. Read that millisecond order by order.
    await tradesOfMillisecond(run, upper, page);
    if (upper <= start) return;
    upper -= 1;
  }
}

async function tradesOfMillisecond(run: StreamRun, ms: number, page: readonly Trade[]): Promise<void> {
  for (const orderId of new Set(page.map((t) => t.orderId))) {
    const fills = await run.client.userTrades({ orderId, startTime: ms, endTime: ms, limit: PAGE }, { signal: run.signal });
    run.rows += await run.store.upsertTrades(run.accountId, fills);
    if (fills.length >= PAGE) run.log.warn(`order ${orderId} has ${PAGE} or more fills at ${ms}: some of them may be missing`);
  }
  // Orders whose fills in that millisecond were all cut from the page cannot be asked for without their ID.
  run.log.warn(
    `${PAGE} or more fills at ${new Date(ms).toISOString()} (account ${run.accountId}): read order by order; fills of other orders in that millisecond may be missing`,
  );
}
