import { useConsole } from './context';
import { noGapsText, syncShortfall, windowQuery } from './coverage-data';
import { plural, when } from './format';
import { Refusal } from './refusal';
import { href } from './route';
import type { Coverage } from './types';
import { useFetch } from './use-fetch';

/** Coverage counts the window's orders in the database: read less often than the rest of Health. */
const REFRESH_MS = 30_000;

/** The last 24 hours of GET /v1/compliance/coverage, as counts: how many orders no uploaded decision covers yet. */
export function CoverageGaps() {
  const { api } = useConsole();
  const { data, error } = useFetch(
    // Counts only: the list of uncovered orders is the Coverage view's.
    () => api.json<Coverage>(`/v1/compliance/coverage?${windowQuery(new URLSearchParams(), '1', 1)}`),
    [api],
    () => REFRESH_MS,
  );
  const orders = data?.orders;
  const shortfall = data && syncShortfall(data);
  return (
    <section aria-labelledby="gaps-heading">
      <h2 id="gaps-heading">Coverage gaps, last 24 hours</h2>
      {error && <Refusal error={error} what="The coverage could not be read" />}
      {!data && !error && <p role="status">Loading…</p>}
      {data && orders && (
        <>
          <p id="coverage-gaps" role="status" data-uncovered={orders.uncovered}>
            {orders.uncovered === 0
              ? noGapsText(data)
              : `${orders.uncovered} of ${plural(orders.total, 'order')} lack an uploaded decision: ${orders.missing} without any decision, ${orders.pending} with one on its way, ${orders.failed} whose decisions failed.`}
          </p>
          <p>
            From {when(data.from)} to {when(data.to)}
            {shortfall && `; ${shortfall}`}. <a href={href('/coverage', { days: '1' })}>The orders and their decisions</a>
          </p>
        </>
      )}
    </section>
  );
}
