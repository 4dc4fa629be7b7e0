import { type Order, WeexApiError } from '#libs/weex-client';
import { DAY_MS, MINUTE_MS, runStart, windowsBetween } from '../time-windows.js';
import { OVERLAP_MS, type StreamRun } from './stream-run.js';

const OPEN_PAGE = 100;
const HISTORY_PAGE = 1000;
/** order/history: endTime within 90 days of startTime (a minute's margin against off-by-one readings of "within"). */
const HISTORY_WINDOW_MS = 90 * DAY_MS - MINUTE_MS;
/** Order lookups per run (orderInfo, 3 UID weight each), so that a mass cancel does not take the upload budget. */
const LOOKUPS_PER_RUN = 20;
/** Guards the paging loops against an exchange that ignores `page`. */
const MAX_PAGES = 1000;

/**
 * Statuses after which an order no longer changes. The spec lists none; these are the final ones of ccxt's
 * parseOrderStatus (FILLED, FULL_FILL, PARTIAL_FILL as closed; CANCELED, CANCELLED; REJECTED) and of Binance-style
 * APIs (EXPIRED, FAILED) [L]. An order stored with any other status, one we know (NEW, PARTIALLY_FILLED, UNTRIGGERED)
 * or one we do not, is looked up again once it is not in openOrders, until the exchange reports a final status.
 */
export const FINAL_ORDER_STATUSES: readonly string[] = ['FILLED', 'FULL_FILL', 'PARTIAL_FILL', 'CANCELED', 'CANCELLED', 'REJECTED', 'EXPIRED', 'FAILED'];

/**
 * Orders: every open order (each run), then the order history by creation time from where the last run got to, in
 * windows of up to 90 days, page by page. order/history holds final orders only and filters by creation time, so an
 * order that was open (or in a status we do not recognise) when its window was read reaches its final state through
 * a lookup (orderInfo) instead, and so do orders of synced fills created before the lookback.
 */
export async function syncOrders(run: StreamRun): Promise<void> {
  // Open orders first: an order that is final by the time the history is read is in the history.
  const open: Order[] = [];
  await eachPage(
    (page) => run.client.openOrders({ limit: OPEN_PAGE, page }, { signal: run.signal }),
    OPEN_PAGE,
    async (items) => {
      open.push(...items);
    },
  );
  run.rows += await run.store.upsertOrders(run.accountId, open);

  const from = runStart(run.syncedUntil, run.now, run.lookbackMs, OVERLAP_MS);
  for (const window of windowsBetween(from, run.now, HISTORY_WINDOW_MS)) {
    const query = { startTime: window.start, endTime: window.end, limit: HISTORY_PAGE };
    // Each page is stored as it comes and let go: a window of 90 days may hold a million orders.
    await eachPage(
      (page) => run.client.orderHistory({ ...query, page }, { signal: run.signal }),
      HISTORY_PAGE,
      async (items) => {
        run.rows += await run.store.upsertOrders(run.accountId, items);
      },
    );
    await run.advance(window.end);
  }

  const openIds = open.map((o) => o.orderId);
  const unknown = [...run.unknownOrders];
  const stale = await run.store.unsettledOrders(run.accountId, FINAL_ORDER_STATUSES, openIds, unknown, LOOKUPS_PER_RUN);
  const orphans = await run.store.ordersOfUnknownFills(run.accountId, unknown, LOOKUPS_PER_RUN);
  const lookups = [...new Set([...stale, ...orphans])].slice(0, LOOKUPS_PER_RUN);
  for (const orderId of lookups) {
    const order = await lookUp(run, orderId);
    if (order) run.rows += await run.store.upsertOrders(run.accountId, [order]);
  }
}

/** Pages from 0 until a short page, each handed to `use`. */
async function eachPage(fetchPage: (page: number) => Promise<Order[]>, pageSize: number, use: (items: Order[]) => Promise<void>): Promise<void> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const batch = await fetchPage(page);
    await use(batch);
    if (batch.length < pageSize) return;
  }
  throw new Error(`more than ${MAX_PAGES} full pages: the exchange does not seem to honour "page"`);
}

/** The order, or undefined when the exchange refuses to show it (it does not know the ID); other failures throw. */
async function lookUp(run: StreamRun, orderId: string): Promise<Order | undefined> {
  try {
    return await run.client.orderInfo({ orderId }, { signal: run.signal });
  } catch (error) {
    if (!(error instanceof WeexApiError) || error.kind !== 'invalid_request') throw error;
    run.unknownOrders.add(orderId);
    run.log.warn(`order ${orderId} of account ${run.accountId} could not be looked up, and will not be asked for again by this process: ${error.message}`);
    return undefined;
  }
}
