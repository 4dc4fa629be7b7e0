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

const newestFirst = (a: LogSummary, b: LogSummary) => b.receivedAt.localeCompare(a.receivedAt) || b.id.localeCompare(a.id);

/**
 * The logs that match `filters` (a query string of GET /v1/ai-logs), newest first: the first page polled for new logs
 * and new statuses, older pages on demand with the cursor.
 */
export function useLiveLogs(api: Client, filters: string): LiveLogs {
  const [logs, setLogs] = useState<LogSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const [news, setNews] = useState('');
  // What is shown, for the poll and "load more" to merge into (their answers come after renders).
  const shown = useRef<LogSummary[]>([]);
  const show = (list: LogSummary[]) => {
    shown.current = list;
    setLogs(list);
  };

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    show([]);
    setCursor(null);
    setLoading(true);
    const poll = async () => {
      if (!document.hidden || first) {
        try {
          const page = await api.json<LogPage>(`/v1/ai-logs?${filters}`);
          if (!live) return;
          setError(undefined);
          if (first) {
            show(page.data);
            setCursor(page.nextCursor);
          } else {
            const merged = merge(shown.current, page);
            show(merged.logs);
            if (merged.reset) setCursor(page.nextCursor);
            if (merged.added > 0) setNews(`${merged.added} new ${merged.added === 1 ? 'decision' : 'decisions'}`);
          }
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

  const more =
    cursor === null
      ? undefined
      : async () => {
          try {
            const page = await api.json<LogPage>(`/v1/ai-logs?${filters}&cursor=${encodeURIComponent(cursor)}`);
            const ids = new Set(shown.current.map((l) => l.id));
            show([...shown.current, ...page.data.filter((l) => !ids.has(l.id))]);
            setCursor(page.nextCursor);
          } catch (failure) {
            setError(asApiError(failure));
          }
        };
  return { logs, error, loading, news, more };
}

/**
 * The polled first page merged into what is shown: new logs on top, known ones updated. When the page shares no log
 * with the list and has more behind it, logs were missed in between: the list restarts from the page.
 */
function merge(known: LogSummary[], page: LogPage): { logs: LogSummary[]; added: number; reset: boolean } {
  const fresh = new Map(page.data.map((l) => [l.id, l]));
  const overlap = known.some((l) => fresh.has(l.id));
  if (!overlap && page.nextCursor !== null && known.length > 0) return { logs: page.data, added: page.data.length, reset: true };
  const ids = new Set(known.map((l) => l.id));
  const added = page.data.filter((l) => !ids.has(l.id));
  const updated = known.map((l) => fresh.get(l.id) ?? l);
  return { logs: [...added, ...updated].sort(newestFirst), added: added.length, reset: false };
}
