import { useEffect, useState } from 'preact/hooks';
import { asApiError, currentSession, onSessionEnded } from './api';
import { Shell } from './shell';
import { SignIn } from './sign-in';
import type { Session } from './types';

/** Signed in or not: the sign-in form, or the console for the session's role. */
export function App() {
  const [session, setSession] = useState<Session | null>();
  const [signedIn, setSignedIn] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    currentSession().then(setSession, (error) => setFailure(asApiError(error).message));
  }, []);
  useEffect(
    () =>
      onSessionEnded(() => {
        setSession(null);
        setNotice('Your console session ended: sign in again.');
      }),
    [],
  );
  if (failure)
    return (
      <main id="main" class="narrow">
        <p role="alert">The gateway did not answer: {failure}</p>
      </main>
    );
  if (session === undefined)
    return (
      <main id="main" class="narrow">
        <p role="status">Loading…</p>
      </main>
    );
  if (session === null)
    return (
      <SignIn
        notice={notice}
        onSignedIn={(made) => {
          setNotice(undefined);
          setSignedIn(true);
          setSession(made);
        }}
      />
    );
  return (
    <Shell
      session={session}
      signedIn={signedIn}
      onSignedOut={() => {
        setSession(null);
        setNotice('Signed out.');
      }}
    />
  );
}
