import type { ComponentChildren } from 'preact';
import { when } from './format';
import { LogText } from './log-text';
import { logHref } from './route';
import { StatusCounts } from './status-counts';
import type { AccountStatus } from './types';
import { WeightBudget } from './weight-budget';

/** An account's upload health (GET /admin/accounts/:id/status, or a team's GET /v1/status); `actions` beside its state. */
export function AccountStatusPanel({ status: s, actions }: { status: AccountStatus; actions?: ComponentChildren }) {
  return (
    <>
      <p>
        Uploads are <strong>{s.paused ? `paused (${s.pauseReason ?? 'admin'}) since ${when(s.pausedAt)}` : 'running'}</strong>. {actions}
      </p>
      <StatusCounts counts={s.logs} />
      <p>Exchange clock offset: {s.clockOffsetMs === null ? 'not measured' : `${s.clockOffsetMs} ms`}.</p>
      <WeightBudget status={s} />
      <h3>Evidence sync</h3>
      <ul>
        {s.evidenceSync.map((e) => (
          <li key={e.stream}>
            {e.stream}: synced up to {when(e.syncedUntil)}
            {!e.ok && (
              <>
                , last run failed: <LogText text={e.lastError ?? ''} />
              </>
            )}
          </li>
        ))}
      </ul>
      <h3>Recent exchange errors</h3>
      {s.recentErrors.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul>
          {s.recentErrors.map((e) => (
            <li key={e.logId + e.at}>
              <a href={logHref(e.logId)}>{when(e.at)}</a>: {e.outcome}, HTTP {e.httpStatus ?? '—'}, code {e.exchangeCode ?? '—'}:{' '}
              <LogText text={e.exchangeMessage ?? ''} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
