import { useConsole } from './context';
import { when } from './format';
import { LogText } from './log-text';
import { Refusal } from './refusal';
import type { AgentKey } from './types';
import { useFetch } from './use-fetch';

/** Keys change by a bearer's call outside the console: looked at again as seldom as coverage. */
const REFRESH_MS = 30_000;

/**
 * A team's judge keys (GET /v1/judge-keys, which its key reads with logs:write), and how to issue and revoke one: with
 * the agent key as a bearer, which the console's cookie never stands for.
 */
export function JudgeKeys() {
  const { api } = useConsole();
  const keys = useFetch(
    () => api.json<{ data: AgentKey[] }>('/v1/judge-keys'),
    [api],
    () => REFRESH_MS,
  );
  const origin = location.origin;
  return (
    <section aria-labelledby="judge-keys-heading">
      <h2 id="judge-keys-heading">Judge keys</h2>
      {keys.error && <Refusal error={keys.error} what="The judge keys could not be listed" />}
      {keys.data &&
        (keys.data.data.length === 0 ? (
          <p>None issued.</p>
        ) : (
          <ul class="keys judge-keys">
            {keys.data.data.map((k) => (
              <li key={k.id} data-key-id={k.id}>
                <strong>
                  <LogText text={k.label} />
                </strong>
                , created {when(k.createdAt)}
                {k.expiresAt && `, expires ${when(k.expiresAt)}`}
                {k.revokedAt && `, revoked ${when(k.revokedAt)}`}; id <code>{k.id}</code>
              </li>
            ))}
          </ul>
        ))}
      <p>
        A judge key reads this account's decisions, coverage and proofs, and nothing else. To issue one (the key is in the answer, once), with your agent key in
        place of <code>$AGENT_KEY</code>:
      </p>
      <pre class="command" id="issue-judge-key" tabIndex={0} aria-label="The command that issues a judge key">
        {`curl -X POST ${origin}/v1/judge-keys \\\n  -H "Authorization: Bearer $AGENT_KEY" -H 'content-type: application/json' \\\n  -d '{"label":"judging panel","expiresInDays":7}'`}
      </pre>
      <p>
        and to revoke one at once: <code>{`curl -X DELETE ${origin}/v1/judge-keys/<id> -H "Authorization: Bearer $AGENT_KEY"`}</code>
      </p>
      <p class="hint">
        The console does not issue or revoke judge keys: it holds a cookie, not your key, and a cookie only reads (besides the few buttons the console offers),
        so that a stolen or ridden session cannot hand out access to your account.
      </p>
    </section>
  );
}
