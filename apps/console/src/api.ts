import type { Session } from './types';

export interface FieldError {
  path: string;
  message: string;
}

/** An answer the gateway refused: its status and code, its message, the fields a 400 names, and Retry-After in s. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const asApiError = (error: unknown): ApiError =>
  error instanceof ApiError ? error : new ApiError(0, 'NETWORK', error instanceof Error ? error.message : String(error));

const SESSION_ENDED = 'console-session-ended';

/** Calls `listener` when a call is refused with 401: the cookie expired, was revoked or signed out elsewhere. */
export function onSessionEnded(listener: () => void): () => void {
  window.addEventListener(SESSION_ENDED, listener);
  return () => window.removeEventListener(SESSION_ENDED, listener);
}

async function refusal(path: string, res: Response): Promise<ApiError> {
  let body: { code?: unknown; message?: unknown; errors?: unknown } = {};
  try {
    body = await res.json();
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  if (res.status === 401 && !path.startsWith('/console/session')) window.dispatchEvent(new Event(SESSION_ENDED));
  const retryAfter = Number(res.headers.get('retry-after')) || undefined;
  const message = typeof body.message === 'string' ? body.message : `${res.status} ${res.statusText}`;
  const errors = Array.isArray(body.errors) ? (body.errors as FieldError[]) : [];
  return new ApiError(res.status, typeof body.code === 'string' ? body.code : `HTTP_${res.status}`, message, errors, retryAfter);
}

/**
 * Calls as the signed-in session: the cookie goes along (same origin), never a credential of ours. An admin names the
 * account it looks at in X-Account-Id on /v1/* calls.
 */
async function send(account: string | null, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (account !== null && path.startsWith('/v1/')) headers.set('x-account-id', account);
  if (typeof init.body === 'string') headers.set('content-type', 'application/json');
  const res = await fetch(path, { ...init, headers, credentials: 'same-origin', cache: 'no-store' });
  if (!res.ok) throw await refusal(path, res);
  return res;
}

export interface Client {
  /** The account the calls read: the session's own, or the one an admin picked; null for an admin who picked none. */
  account: string | null;
  json<T>(path: string): Promise<T>;
  text(path: string): Promise<string>;
  bytes(path: string): Promise<Uint8Array<ArrayBuffer>>;
  post<T>(path: string, body?: unknown): Promise<T>;
  remove<T>(path: string): Promise<T>;
}

/** A client for one account; `adminHeader` says whether it goes in X-Account-Id (admin sessions only). */
export function client(account: string | null, adminHeader: boolean): Client {
  const header = adminHeader ? account : null;
  return {
    account,
    json: async (path) => (await send(header, path)).json(),
    text: async (path) => (await send(header, path)).text(),
    bytes: async (path) => new Uint8Array(await (await send(header, path)).arrayBuffer()),
    post: async (path, body) => (await send(header, path, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) })).json(),
    remove: async (path) => (await send(header, path, { method: 'DELETE' })).json(),
  };
}

/** The current session, or null when not signed in. */
export async function currentSession(): Promise<Session | null> {
  try {
    return await (await send(null, '/console/session')).json();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const signIn = async (credential: string): Promise<Session> =>
  (await send(null, '/console/session', { method: 'POST', body: JSON.stringify({ credential }) })).json();

export const signOut = async (): Promise<void> => void (await send(null, '/console/session', { method: 'DELETE' }));
