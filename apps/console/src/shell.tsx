import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { client, signOut } from './api';
import { ConsoleContext } from './context';
import { CoverageView } from './coverage';
import { Decision } from './decision';
import { Decisions } from './decisions';
import { when } from './format';
import { Health } from './health';
import { LogText, markHidden } from './log-text';
import { type Route, useRoute } from './route';
import type { Account, Session } from './types';
import { useFetch } from './use-fetch';

/** The account an admin last looked at in this tab: an account ID, no secret. */
const PICKED = 'console.account';
const NAV = [
  ['/logs', 'Decisions'],
  ['/coverage', 'Coverage'],
  ['/health', 'Health'],
] as const;

/**
 * The signed-in console: navigation, the account on view (an admin picks one), and the view the hash names.
 * `signedIn`: the session was just made by the form, so the first view's heading takes the focus too.
 */
export function Shell({ session, signedIn, onSignedOut }: { session: Session; signedIn?: boolean; onSignedOut(): void }) {
  const route = useRoute();
  const admin = session.role === 'admin';
  const [picked, setPicked] = useState<string | null>(() => (admin ? sessionStorage.getItem(PICKED) : null));
  const accounts = useFetch(() => (admin ? client(null, false).json<{ data: Account[] }>('/admin/accounts') : Promise.resolve(undefined)), [admin]);
  useEffect(() => {
    const list = accounts.data?.data;
    if (list && !list.some((a) => a.id === picked)) setPicked(list[0]?.id ?? null);
  }, [accounts.data]);
  useEffect(() => void (picked && sessionStorage.setItem(PICKED, picked)), [picked]);
  // An admin's remembered account is used once the list confirms it still exists.
  const account = admin ? (accounts.data?.data.some((a) => a.id === picked) ? picked : null) : session.accountId;
  const api = useMemo(() => client(account, admin), [account, admin]);

  // A new view, or the first after sign-in, takes the focus to its heading, so that a screen reader starts there. The
  // heading may come a render later (an admin's view waits for the accounts): each render looks until it is there.
  const main = useRef<HTMLElement>(null);
  const focusPending = useRef(signedIn === true);
  const first = useRef(true);
  useEffect(() => {
    if (!first.current) focusPending.current = true;
    first.current = false;
  }, [route.path]);
  useEffect(() => {
    const heading = focusPending.current ? main.current?.querySelector<HTMLElement>('h1') : undefined;
    if (heading) {
      heading.focus();
      focusPending.current = false;
    }
  });

  const section = '/' + (route.path.split('/')[1] || 'logs');
  return (
    <ConsoleContext.Provider value={{ session, api }}>
      <button class="skip" type="button" onClick={() => main.current?.querySelector<HTMLElement>('h1')?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <p class="brand">AI-log gateway</p>
        <nav aria-label="Console">
          {NAV.map(([path, name]) => (
            <a key={path} href={`#${path}`} aria-current={section === path ? 'page' : undefined}>
              {name}
            </a>
          ))}
        </nav>
        <div class="who">
          {admin ? (
            <label>
              Account{' '}
              <select value={picked ?? ''} onChange={(e) => setPicked(e.currentTarget.value)} disabled={!accounts.data}>
                {accounts.data?.data.map((a) => (
                  <option key={a.id} value={a.id}>
                    {markHidden(a.name)} ({a.id})
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <span>
              Account <strong>{session.accountId}</strong>
            </span>
          )}
          <span class="role" title={`expires ${when(session.expiresAt)}`}>
            {session.role}
            {session.label !== session.role && (
              <>
                :{' '}
                <span class="clip" title={markHidden(session.label)}>
                  <LogText text={session.label} />
                </span>
              </>
            )}
          </span>
          <button type="button" onClick={() => void signOut().then(onSignedOut, onSignedOut)}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" ref={main}>
        {accounts.error && <p role="alert">The accounts could not be listed: {accounts.error.message}</p>}
        {account === null ? (
          <p role="status">{accounts.data?.data.length === 0 ? 'No account exists yet: add one with POST /admin/accounts.' : 'Loading accounts…'}</p>
        ) : (
          <View key={account} route={route} />
        )}
      </main>
    </ConsoleContext.Provider>
  );
}

function View({ route }: { route: Route }) {
  const { path, query } = route;
  const log = /^\/logs\/([^/]+)$/.exec(path);
  if (log) {
    const id = safeDecode(log[1]);
    return <Decision key={id} id={id} />;
  }
  if (path === '/' || path === '/logs') return <Decisions query={query} />;
  if (path === '/coverage') return <CoverageView query={query} />;
  if (path === '/health') return <Health />;
  return (
    <>
      <h1 tabIndex={-1}>Not found</h1>
      <p>
        No such view. <a href="#/logs">Back to the decisions</a>
      </p>
    </>
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
