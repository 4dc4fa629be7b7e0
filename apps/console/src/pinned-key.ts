/**
 * The gateway verifier key a judge pinned for an account: one got out of band (the team's published key), kept in this
 * browser's localStorage, which is per gateway address already, under the account's ID. Keyed by account and not by
 * the checkpoint origin, since the origin's name comes from the key: a gateway serving another key must not make the
 * pin look absent.
 */
const storageKey = (account: string) => `console.pinned-verifier-key.${account}`;

/** `<name>+<8 hex digits>+<base64>`: the form of a note verifier key; the verifier checks the rest when it uses it. */
const VERIFIER_KEY = /^[^+\s]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*$/;

export const isVerifierKey = (text: string): boolean => VERIFIER_KEY.test(text);

export function readPinnedKey(account: string | null): string | undefined {
  if (account === null) return undefined;
  try {
    return localStorage.getItem(storageKey(account)) ?? undefined;
  } catch {
    // Storage turned off in this browser: nothing is pinned, and the verdict says it checked the served key only.
    return undefined;
  }
}

/** Pins `key` for the account, or unpins with undefined; throws when the browser keeps no storage for this page. */
export function writePinnedKey(account: string, key: string | undefined): void {
  if (key === undefined) localStorage.removeItem(storageKey(account));
  else localStorage.setItem(storageKey(account), key);
}
