import { useEffect, useState } from 'preact/hooks';
import { type ApiError, asApiError } from './api';

export interface Loaded<T> {
  data?: T;
  error?: ApiError;
  /** Fetches again now (after an action changed what it shows). */
  reload(): void;
}

/**
 * Runs `load` when `deps` change, and again every `pollMs(data)` ms while that gives a number (hidden tabs skip a turn).
 * An answer that comes after the deps changed is dropped, so a view never shows an earlier account's or log's data.
 */
export function useFetch<T>(load: () => Promise<T>, deps: unknown[], pollMs?: (data: T | undefined) => number | undefined): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError }>({});
  const [turn, setTurn] = useState(0);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last: T | undefined;
    const run = async () => {
      if (!document.hidden || last === undefined) {
        try {
          last = await load();
          if (live) setState({ data: last });
        } catch (error) {
          if (live) setState((prev) => ({ data: prev.data, error: asApiError(error) }));
        }
      }
      const next = pollMs?.(last);
      if (live && next !== undefined) timer = setTimeout(run, next);
    };
    void run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The caller names what `load` depends on; views are keyed by account and log, so earlier data never shows.
  }, [...deps, turn]);
  return { ...state, reload: () => setTurn((t) => t + 1) };
}
