import { AccountStatusPanel } from './account-status';
import { ChainStatus } from './chain-status';
import { useConsole } from './context';
import { CoverageGaps } from './coverage-gaps';
import { AdminHealth } from './health-admin';
import { JudgeKeys } from './judge-keys';
import { Refusal } from './refusal';
import { StatusCounts } from './status-counts';
import { type AccountStatus, type LogPage, STATUSES } from './types';
import { useFetch } from './use-fetch';

/** A judge's counts are read from the list, one page of this many per status. */
const COUNT_UP_TO = 500;
const REFRESH_MS = 5000;

/**
 * Operators get the queue and the account's state with its actions, a team its account's state and its judge keys, a
 * judge its logs by status; every role the coverage gaps and the audit chain with its witnesses.
 */
export function Health() {
  const { session } = useConsole();
  const shared = (
    <>
      <CoverageGaps />
      <ChainStatus />
    </>
  );
  return (
    <>
      <h1 tabIndex={-1}>Health</h1>
      {session.role === 'admin' ? (
        <AdminHealth>{shared}</AdminHealth>
      ) : (
        <>
          {session.role === 'team' ? <TeamHealth /> : <AccountCounts />}
          {shared}
          {session.role === 'team' && <JudgeKeys />}
        </>
      )}
    </>
  );
}

/** GET /v1/status: what an admin sees of the team's own account, without the actions. */
function TeamHealth() {
  const { api } = useConsole();
  const { data, error } = useFetch(
    () => api.json<AccountStatus>('/v1/status'),
    [api],
    () => REFRESH_MS,
  );
  return (
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">Account {api.account}</h2>
      {error && <Refusal error={error} what="The account's status could not be read" />}
      {data ? <AccountStatusPanel status={data} /> : !error && <p role="status">Loading…</p>}
    </section>
  );
}

/** A judge's key reads no status route: its counts come from the list, up to COUNT_UP_TO per status. */
function AccountCounts() {
  const { api } = useConsole();
  const { data, error } = useFetch(
    async () => {
      const pages = await Promise.all(STATUSES.map((status) => api.json<LogPage>(`/v1/ai-logs?status=${status}&limit=${COUNT_UP_TO}`)));
      return Object.fromEntries(STATUSES.map((status, i) => [status, pages[i].data.length]));
    },
    [api],
    () => REFRESH_MS,
  );
  return (
    <section aria-labelledby="counts-heading">
      <h2 id="counts-heading">Decisions of account {api.account} by upload status</h2>
      {error && <Refusal error={error} what="The counts could not be read" />}
      <StatusCounts counts={data ?? {}} atLeast={COUNT_UP_TO} />
      <p class="hint">Queued, uploading and retrying decisions are on their way to the exchange; a failed one waits for an operator's retry.</p>
    </section>
  );
}
