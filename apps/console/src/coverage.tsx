import { useState } from 'preact/hooks';
import { useConsole } from './context';
import { CoverageChart } from './coverage-chart';
import { countByModelStage, loadTimeline, noGapsText, windowQuery } from './coverage-data';
import { fromUtcInput, utcInput, when } from './format';
import { LogText } from './log-text';
import { Refusal } from './refusal';
import { href, logHref, navigate } from './route';
import type { Coverage } from './types';
import { useFetch } from './use-fetch';

/** The windows GET /v1/compliance/coverage takes: a number of days up to now (at most 90), or from and to. */
const DAYS = ['1', '7', '30', '90'];

/** Which orders lack a decision, what the decisions are, and both on one time axis. */
export function CoverageView({ query }: { query: URLSearchParams }) {
  const { api } = useConsole();
  const custom = query.has('from') || query.has('to');
  const days = custom ? undefined : (query.get('days') ?? '7');
  const { data, error } = useFetch(async () => {
    const coverage = await api.json<Coverage>(`/v1/compliance/coverage?${windowQuery(query, days)}`);
    return { coverage, timeline: await loadTimeline(api, coverage) };
  }, [api, query.toString()]);
  return (
    <>
      <h1 tabIndex={-1}>Coverage</h1>
      <WindowForm key={query.toString()} days={days} from={query.get('from') ?? undefined} to={query.get('to') ?? undefined} />
      {error && <Refusal error={error} what="The coverage could not be read" />}
      {!data && !error && <p role="status">Loading…</p>}
      {data && <CoverageReport {...data} />}
    </>
  );
}

function WindowForm(props: { days?: string; from?: string; to?: string }) {
  const [days, setDays] = useState(props.days ?? 'custom');
  const [from, setFrom] = useState(props.from);
  const [to, setTo] = useState(props.to);
  const submit = (event: Event) => {
    event.preventDefault();
    navigate('/coverage', days === 'custom' ? { from, to } : { days });
  };
  return (
    <form class="filters" onSubmit={submit} aria-label="Coverage window">
      <label>
        Window
        <select value={days} onChange={(e) => setDays(e.currentTarget.value)}>
          {DAYS.map((d) => (
            <option key={d} value={d}>
              last {d === '1' ? '24 hours' : `${d} days`}
            </option>
          ))}
          <option value="custom">from and to</option>
        </select>
      </label>
      {days === 'custom' && (
        <>
          <label>
            From (UTC)
            <input type="datetime-local" step={1} value={utcInput(from)} onInput={(e) => setFrom(fromUtcInput(e.currentTarget.value))} />
          </label>
          <label>
            To (UTC), exclusive
            <input type="datetime-local" step={1} value={utcInput(to)} onInput={(e) => setTo(fromUtcInput(e.currentTarget.value))} />
          </label>
        </>
      )}
      <div class="actions">
        <button type="submit">Show</button>
      </div>
    </form>
  );
}

function CoverageReport({ coverage, timeline }: { coverage: Coverage; timeline: Awaited<ReturnType<typeof loadTimeline>> }) {
  const { orders, fills } = coverage;
  const counts = countByModelStage(timeline.logs);
  return (
    <>
      <p>
        From {when(coverage.from)} to {when(coverage.to)}.{' '}
        {coverage.sync.coversWindow
          ? 'Orders and fills are synced to its end.'
          : coverage.sync.syncedUntil === null
            ? "The exchange's orders and fills have not been read yet."
            : `Orders and fills are synced up to ${when(coverage.sync.syncedUntil)} only: later ones are not counted yet.`}
      </p>
      <dl class="tiles">
        {[
          ['Orders', orders.total],
          ['Covered', orders.covered],
          ['Without a decision', orders.missing],
          ['Decision on its way', orders.pending],
          ['Decision failed', orders.failed],
          ['Fills covered', `${fills.covered} of ${fills.total}`],
        ].map(([name, value]) => (
          <div key={name} class="tile">
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <CoverageChart timeline={timeline} from={coverage.from} to={coverage.to} />
      <h2>Orders not covered</h2>
      {coverage.uncoveredOrders.length === 0 ? (
        <p id="no-gaps">{noGapsText(coverage)}</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Placed</th>
                <th scope="col">Symbol</th>
                <th scope="col">Side and type</th>
                <th scope="col">Status</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {coverage.uncoveredOrders.map((o) => (
                <tr key={o.orderId}>
                  <td>
                    <a href={href('/logs', { orderId: o.orderId })}>{o.orderId}</a>
                  </td>
                  <td>{when(o.time)}</td>
                  <td>{o.symbol}</td>
                  <td>
                    {o.side} {o.type}
                  </td>
                  <td>
                    {o.status}
                    {o.filled ? ', filled' : ''}
                  </td>
                  <td>{o.reason === 'missing' ? 'no decision names it' : o.reason === 'pending' ? 'its decision is on its way' : 'its decisions failed'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {coverage.uncoveredOrdersTruncated && <p class="hint">The first 100 only, of {orders.uncovered}.</p>}
      <h2>Decisions per model and stage</h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Stage</th>
              <th scope="col">Decisions</th>
              <th scope="col">Uploaded</th>
              <th scope="col">On their way</th>
              <th scope="col">Failed</th>
            </tr>
          </thead>
          <tbody>
            {counts.map((c) => (
              <tr key={`${c.model}\n${c.stage}`}>
                <td class="wrap">
                  <a href={href('/logs', { model: c.model, stage: c.stage, from: coverage.from, to: coverage.to })}>
                    <LogText text={c.model} />
                  </a>
                </td>
                <td class="wrap">
                  <LogText text={c.stage} />
                </td>
                <td>{c.total}</td>
                <td>{c.uploaded}</td>
                <td>{c.pending}</td>
                <td>{c.failed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {counts.length === 0 && <p>No decision in the window.</p>}
      <h2>Decisions naming no known order</h2>
      {coverage.unmatchedLogs.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul>
          {coverage.unmatchedLogs.map((l) => (
            <li key={l.id}>
              <a href={logHref(l.id)}>order {l.orderId}</a>: {l.status}, received {when(l.receivedAt)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
