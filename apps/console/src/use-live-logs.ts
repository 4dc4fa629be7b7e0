import { useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, asApiError, type Client } from './api';
import type { LogPage, LogSummary } from './types';

/** A new log must show within 2 s of its commit: a poll every second leaves room for the request itself. */
export const POLL_MS = 1000;

export interface LiveLogs {
  logs: LogSummary[];
  error?: ApiError;
  loading: boolean;
  /** What a screen reader hears when logs arrive. */
  news: string;
  more?: () => Promise<void>;
}

/** A page of the list, as "Load more" reads it; the poll reads what is shown and a page more (at most the API's 500). */
export const PAGE = 50;
const MAX_POLL = 500;

/** The API's order, received_at then id descending; code units compare as PostgreSQL compares UUIDs, not as locales do. */
function newestFirst(a: LogSummary, b: LogSummary): number {
  if (a.receivedAt !== b.receivedAt) return a.receivedAt < b.receivedAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/**
 * The logs that match `filters` (a query string of GET /v1/ai-logs, without limit and cursor), newest first: what is
 * shown read again every POLL_MS, so that statuses change in place and logs that stopped matching leave; older pages on
 * demand with the cursor.
 */
export function useLiveLogs(api: Client, filters: string): LiveLogs {
  const [list, setList] = useState<Shown>({ logs: [], cursor: null });
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const [news, setNews] = useState('');
  // What is shown, for the poll and "load more" to merge into (their answers come after renders).
  const shown = useRef<Shown>(list);
  const show = (next: Shown) => {
    shown.current = next;
    setList(next);
  };
  const query = (limit: number, after?: string) => {
    const params = new URLSearchParams(filters);
    params.set('limit', String(limit));
    if (after !== undefined) params.set('cursor', after);
    return `/v1/ai-logs?${params}`;
  };

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    show({ logs: [], cursor: null });
    setLoading(true);
    const poll = async () => {
      if (!document.hidden || first) {
        try {
          const page = await api.json<LogPage>(query(Math.min(MAX_POLL, shown.current.logs.length + PAGE)));
          if (!live) return;
          setError(undefined);
          const known = shown.current;
          const next = merge(known, page);
          show(next);
          const ids = new Set(known.logs.map((l) => l.id));
          const added = next.logs.filter((l) => !ids.has(l.id)).length;
          if (!first && added > 0) setNews(`${added} new ${added === 1 ? 'decision' : 'decisions'}`);
          first = false;
        } catch (failure) {
          if (live) setError(asApiError(failure));
        }
        if (live) setLoading(false);
      }
      if (live) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, filters]);

  const { cursor } = list;
  const more =
    cursor === null
      ? undefined
      : async () => {
          try {
            const page = await api.json<LogPage>(query(PAGE, cursor));
            const ids = new Set(shown.current.logs.map((l) => l.id));
            show({ logs: [...shown.current.logs, ...page.data.filter((l) => !ids.has(l.id))], cursor: page.nextCursor });
          } catch (failure) {
            setError(asApiError(failure));
          }
        };
  return { logs: list.logs, error, loading, news, more };
}

/** The logs shown, and the cursor "Load more" reads after them (null: they are every match). */
interface Shown {
  logs: LogSummary[];
  cursor: string | null;
}

/**
 * The first page (read as deep as what is shown, and a page more) merged into what is shown. Where the page reaches, it
 * is the truth: new logs, new statuses, and no log that stopped matching the filters; it is cut at the oldest shown
 * log, so that older ones still wait for "Load more". Shown logs older than its last (more than MAX_POLL shown, or a
 * burst of new logs) stay as loaded.
 */
export function merge(known: Shown, page: LogPage): Shown {
  const oldest = known.logs[known.logs.length - 1];
  const last = page.data[page.data.length - 1];
  // Nothing shown yet, or every match was and the page holds every match: the page is the list.
  if (!oldest || (known.cursor === null && page.nextCursor === null)) return { logs: page.data, cursor: page.nextCursor };
  if (!last || newestFirst(last, oldest) >= 0) {
    const logs = page.data.filter((l) => newestFirst(l, oldest) <= 0);
    // A last page with nothing past the oldest shown log leaves nothing to load.
    return { logs, cursor: page.nextCursor === null && logs.length === page.data.length ? null : known.cursor };
  }
  return { logs: [...page.data, ...known.logs.filter((l) => newestFirst(l, last) > 0)], cursor: known.cursor };
}
