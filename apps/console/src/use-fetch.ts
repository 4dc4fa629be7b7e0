import { useEffect, useMemo, useState } from 'preact/hooks';
import { type ApiError, asApiError } from './api';

export interface Loaded<T> {
  data?: T;
  error?: ApiError;
  /** Fetches again now (after an action changed what it shows). */
  reload(): void;
}

/**
 * Runs `load` when `deps` change, and again every `pollMs(data)` ms while that gives a number (hidden tabs skip a turn).
 * What it answers belongs to the deps it was loaded for: after they change, nothing earlier shows, neither while the
 * new answer loads nor beside its error. A poll or reload that fails keeps the data of the same deps beside its error.
 */
export function useFetch<T>(load: () => Promise<T>, deps: unknown[], pollMs?: (data: T | undefined) => number | undefined): Loaded<T> {
  // A new object for each new set of deps: the key that answers are stored under.
  const key = useMemo(() => ({}), deps);
  const [state, setState] = useState<{ key?: object; data?: T; error?: ApiError }>({});
  const [turn, setTurn] = useState(0);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last: T | undefined;
    const run = async () => {
      if (!document.hidden || last === undefined) {
        try {
          last = await load();
          if (live) setState({ key, data: last });
        } catch (error) {
          if (live) setState((prev) => ({ key, data: prev.key === key ? prev.data : undefined, error: asApiError(error) }));
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
  }, [key, turn]);
  const current = state.key === key ? state : {};
  return { data: current.data, error: current.error, reload: () => setTurn((t) => t + 1) };
}
