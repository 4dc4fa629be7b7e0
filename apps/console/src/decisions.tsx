import { useConsole } from './context';
import { DecisionFilters, FILTERS } from './decision-filters';
import { when } from './format';
import { LogText } from './log-text';
import { Refusal } from './refusal';
import { logHref } from './route';
import type { LogSummary } from './types';
import { useLiveLogs } from './use-live-logs';

/** The account's decisions, newest first, filtered as the hash says; new ones appear while the page is open. */
export function Decisions({ query }: { query: URLSearchParams }) {
  const { api } = useConsole();
  const params = new URLSearchParams();
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value) params.set(name, value);
  }
  const { logs, error, loading, news, more } = useLiveLogs(api, params.toString());

  return (
    <>
      <h1 tabIndex={-1}>Decisions</h1>
      <DecisionFilters key={query.toString()} query={query} />
      {error && <Refusal error={error} what="The decisions could not be listed" />}
      <p class="sr-only" aria-live="polite">
        {news}
      </p>
      <p class="hint">{loading ? 'Loading…' : `${logs.length} shown, newest first; new decisions appear as they arrive.`}</p>
      <ol class="logs" aria-label="Decisions, newest first" aria-busy={loading}>
        {logs.map((log) => (
          <LogRow key={log.id} log={log} />
        ))}
      </ol>
      {!loading && !error && logs.length === 0 && <p>No decision matches.</p>}
      {more && (
        <button type="button" class="more" onClick={more}>
          Load more
        </button>
      )}
    </>
  );
}

function LogRow({ log }: { log: LogSummary }) {
  return (
    <li class="log" data-log-id={log.id}>
      <a class="log-time" href={logHref(log.id)}>
        <time dateTime={log.receivedAt}>{when(log.receivedAt)}</time>
      </a>
      <span class={`status status-${log.status}`}>{log.status}</span>
      <span class="log-model">
        <LogText text={log.model} /> · <LogText text={log.stage} />
      </span>
      <span class="log-order">{log.orderId ? <LogText text={`order ${log.orderId}`} /> : 'no order'}</span>
      <p class="log-explanation">
        <LogText text={log.explanation} />
      </p>
      {log.lastError && (
        <p class="log-error">
          <LogText text={log.lastError} />
        </p>
      )}
    </li>
  );
}
