import { useState } from 'preact/hooks';
import { type ApiError, asApiError, signIn } from './api';
import type { Session } from './types';

/**
 * The credential goes to POST /console/session once and is forgotten: the session lives in an HttpOnly cookie, never in
 * storage, a URL or this page's state after sign-in.
 */
export function SignIn({ notice, onSignedIn }: { notice?: string; onSignedIn(session: Session): void }) {
  const [credential, setCredential] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = await signIn(credential.trim());
      setCredential('');
      onSignedIn(session);
    } catch (failure) {
      setError(refusalText(asApiError(failure)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" class="narrow sign-in">
      <h1>AI-log gateway console</h1>
      {notice && <p role="status">{notice}</p>}
      <form onSubmit={submit} aria-busy={busy}>
        <label for="credential">Agent key, judge key or admin token</label>
        <input
          id="credential"
          name="credential"
          type="password"
          autocomplete="current-password"
          required
          value={credential}
          onInput={(e) => setCredential(e.currentTarget.value)}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby="credential-help credential-error"
        />
        <p id="credential-help" class="hint">
          Teams sign in with an agent key, judges with a judge key, operators with the admin token. It is sent once; the session is a cookie this page cannot
          read.
        </p>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <p id="credential-error" class="error" role="alert">
          {error}
        </p>
      </form>
    </main>
  );
}

/**
 * What the form says of a refusal. The gateway cannot tell a mistyped agent key from a wrong admin token (it tries
 * both), so it names neither; and an address that sent too many is told when to try again.
 */
function refusalText(refused: ApiError): string {
  if (refused.status === 401) return 'That key or token was not recognised: check it and try again.';
  const wait = refused.retryAfter ? `in ${refused.retryAfter} s` : 'later';
  if (refused.status === 429) return `Too many keys or tokens not recognised from this address: try again ${wait}.`;
  const detail = refused.errors.length > 0 ? refused.errors.map((e) => e.message).join('; ') : refused.message;
  return refused.retryAfter ? `${detail} (try again in ${refused.retryAfter} s)` : detail;
}
