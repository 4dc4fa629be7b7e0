import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { AccountStatusPanel } from './account-status';
import { ActionButton } from './action-button';
import { asApiError } from './api';
import { useConsole } from './context';
import { when } from './format';
import { LogText, markHidden } from './log-text';
import { Refusal } from './refusal';
import { RevokeButton } from './revoke-button';
import { StatusCounts } from './status-counts';
import type { AccountStatus, AgentKey, QueueOverview } from './types';
import { useFetch } from './use-fetch';

const REFRESH_MS = 5000;

/** The upload queue, the chosen account's state with pause and resume, `children`, then the account's agent keys. */
export function AdminHealth({ children }: { children?: ComponentChildren }) {
  const { api } = useConsole();
  const account = encodeURIComponent(api.account!);
  const queue = useFetch(
    () => api.json<QueueOverview>('/admin/queue'),
    [api],
    () => REFRESH_MS,
  );
  const status = useFetch(
    () => api.json<AccountStatus>(`/admin/accounts/${account}/status`),
    [api],
    () => REFRESH_MS,
  );
  const [message, setMessage] = useState<string>();
  const act = async (action: 'pause' | 'resume') => {
    try {
      await api.post(`/admin/accounts/${account}/${action}`);
      setMessage(action === 'pause' ? 'Uploads paused.' : 'Uploads resumed.');
      status.reload();
    } catch (failure) {
      setMessage(`Not done: ${asApiError(failure).message}`);
    }
  };
  const s = status.data;
  return (
    <>
      <section aria-labelledby="queue-heading">
        <h2 id="queue-heading">Upload queue, all accounts</h2>
        {queue.error && <Refusal error={queue.error} what="The queue could not be read" />}
        {queue.data && (
          <>
            <p>
              Queue {queue.data.queue} on {queue.data.backend}
              {queue.data.paused ? ', paused' : ''}.{' '}
              {queue.data.jobs
                ? `Jobs: ${Object.entries(queue.data.jobs)
                    .map(([state, n]) => `${n} ${state}`)
                    .join(', ')}.`
                : `Jobs unknown: ${queue.data.jobsError ?? 'the queue store did not answer'}.`}
            </p>
            <StatusCounts counts={queue.data.logs} />
          </>
        )}
        <p>
          <a href="/admin/queues">Queue dashboard</a> (signs in with the admin token)
        </p>
      </section>
      <section aria-labelledby="account-heading">
        <h2 id="account-heading">Account {api.account}</h2>
        {status.error && <Refusal error={status.error} what="The account's status could not be read" />}
        {s && (
          <AccountStatusPanel
            status={s}
            actions={
              <>
                <ActionButton onPress={() => act(s.paused ? 'resume' : 'pause')}>{s.paused ? 'Resume uploads' : 'Pause uploads'}</ActionButton>{' '}
                <span role="status">{message}</span>
              </>
            }
          />
        )}
      </section>
      {children}
      <AgentKeys />
    </>
  );
}

/** The account's keys (never the keys themselves: the gateway keeps their hashes), each revocable. */
function AgentKeys() {
  const { api } = useConsole();
  const keys = useFetch(() => api.json<{ data: AgentKey[] }>(`/admin/agents?accountId=${encodeURIComponent(api.account!)}`), [api]);
  const [message, setMessage] = useState<string>();
  const revoke = async (key: AgentKey) => {
    try {
      await api.remove(`/admin/agents/${encodeURIComponent(key.id)}`);
      setMessage(`Revoked ${markHidden(key.label)}.`);
      keys.reload();
    } catch (failure) {
      setMessage(`Not revoked: ${asApiError(failure).message}`);
    }
  };
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">Agent and judge keys</h2>
      {keys.error && <Refusal error={keys.error} what="The keys could not be listed" />}
      <p role="status">{message}</p>
      <ul class="keys">
        {keys.data?.data.map((k) => (
          <li key={k.id}>
            <strong>
              <LogText text={k.label} />
            </strong>{' '}
            ({k.scopes.join(', ')}), created {when(k.createdAt)}
            {k.expiresAt && `, expires ${when(k.expiresAt)}`}
            {k.revokedAt ? (
              `, revoked ${when(k.revokedAt)}`
            ) : (
              <>
                {' '}
                <RevokeButton label={k.label} onRevoke={() => revoke(k)} />
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
