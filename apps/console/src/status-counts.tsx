import { type StatusCounts as Counts, STATUSES } from './types';
import { href } from './route';

/** Logs by status, each a link to the list of them; `atLeast` marks counts that reached their reading's limit. */
export function StatusCounts({ counts, atLeast }: { counts: Partial<Counts>; atLeast?: number }) {
  return (
    <dl class="tiles">
      {STATUSES.map((status) => (
        <div key={status} class="tile">
          <dt>
            <a href={href('/logs', { status })}>{status}</a>
          </dt>
          <dd>{counts[status] === undefined ? '…' : `${counts[status]}${atLeast !== undefined && counts[status]! >= atLeast ? '+' : ''}`}</dd>
        </div>
      ))}
    </dl>
  );
}
