import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AccountsRepository, type AgentIdentity } from './accounts.repository.js';
import { AdminTokenService } from './admin-token.service.js';
import { type ConsoleRole, type ConsoleSessionRow, ConsoleSessionsRepository } from './console-sessions.repository.js';
import { readCookieValues } from './single-cookie.js';

export const CONSOLE_COOKIE = 'gw_console';

/**
 * The console cookie's name for a request: over TLS `__Host-gw_console`, which the browser takes only from this very
 * host (Secure, Path=/, no Domain), so that no site under a parent domain can plant one; over plain HTTP (a sandbox on
 * localhost) `gw_console`, as the prefix needs Secure.
 */
export const consoleCookieName = (request: FastifyRequest): string => (request.protocol === 'https' ? `__Host-${CONSOLE_COOKIE}` : CONSOLE_COOKIE);
/** A console sign-in lasts a working day, and never past its key's expiry. */
export const CONSOLE_SESSION_MS = 8 * 60 * 60 * 1000;

export interface ConsoleSessionView {
  role: ConsoleRole;
  /** The account a team or judge session reads; null for an admin, who chooses one per request (X-Account-Id). */
  accountId: string | null;
  label: string;
  expiresAt: string;
}

/** What a console cookie admits a request as. */
export type ConsoleAuth = { role: 'admin' } | { role: 'team' | 'judge'; agent: AgentIdentity };

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
/** What an admin session keeps of the admin token: keyed by the session's own token, which the database never holds. */
const adminTokenMac = (sessionToken: string, adminToken: string): string => createHmac('sha256', sessionToken).update(adminToken).digest('hex');
/** Sessions one key (or the admin token) may hold at once: signing in again ends the oldest past this. */
const SESSIONS_PER_KEY = 20;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The form of every token signIn makes (32 random bytes, base64url): nothing else is looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Console sign-ins. The cookie holds a random token and the database its SHA-256, so a session ends when it is signed
 * out, when it expires, when its key is revoked or expires, or (for an admin) when the admin token changes.
 */
@Injectable()
export class ConsoleSessionService {
  constructor(
    private readonly sessions: ConsoleSessionsRepository,
    private readonly accounts: AccountsRepository,
    private readonly adminTokens: AdminTokenService,
  ) {}

  /** A session for an agent or judge key, or undefined when `credential` is no live key. */
  async signInWithKey(credential: string): Promise<{ token: string; view: ConsoleSessionView } | undefined> {
    const agent = await this.accounts.findActiveKey(credential);
    const key = agent && (await this.accounts.findAgentKey(agent.agentKeyId));
    if (!agent || !key) return undefined;
    const role = agent.scopes.length === 1 && agent.scopes[0] === 'audit:read' ? 'judge' : 'team';
    const end = Math.min(Date.now() + CONSOLE_SESSION_MS, key.expiresAt?.getTime() ?? Infinity);
    const token = await this.open(role, key.id, () => null, new Date(end));
    return { token, view: { role, accountId: key.accountId, label: key.label, expiresAt: new Date(end).toISOString() } };
  }

  /** A session for the admin token, which the caller has checked (AdminAuthGuard.verify, which throttles guesses). */
  async signInAsAdmin(adminToken: string): Promise<{ token: string; view: ConsoleSessionView }> {
    const end = new Date(Date.now() + CONSOLE_SESSION_MS);
    const token = await this.open('admin', null, (sessionToken) => adminTokenMac(sessionToken, adminToken), end);
    return { token, view: { role: 'admin', accountId: null, label: 'admin', expiresAt: end.toISOString() } };
  }

  async view(request: FastifyRequest): Promise<ConsoleSessionView | undefined> {
    const row = await this.liveSession(readConsoleCookies(request));
    if (!row) return undefined;
    return { role: row.role, accountId: row.agent?.accountId ?? null, label: row.label, expiresAt: row.expiresAt.toISOString() };
  }

  async signOut(request: FastifyRequest): Promise<void> {
    for (const token of readConsoleCookies(request) ?? []) await this.sessions.delete(sha256(token));
  }

  /**
   * What the request's console cookie admits it as: undefined without one, 401 for one that ended or that this
   * gateway did not set. A session reads what its key reads, but changes only what the console offers (`consoleAction`:
   * the handler is marked ConsoleAction), and only from the gateway's own pages (CSRF): 403 otherwise.
   */
  async admit(request: FastifyRequest, consoleAction: boolean): Promise<ConsoleAuth | undefined> {
    const tokens = readConsoleCookies(request);
    if (tokens === undefined) return undefined;
    const row = await this.liveSession(tokens);
    if (!row) throw new UnauthorizedException('the console session ended: sign in again at /console');
    if (!SAFE_METHODS.has(request.method)) {
      if (!consoleAction) throw new ForbiddenException('a console session only reads here: send the key as a bearer to change this');
      if (!sameOrigin(request)) throw new ForbiddenException('a console session may change things only from the console itself (Origin must be this gateway)');
    }
    return row.role === 'admin' ? { role: 'admin' } : { role: row.role, agent: row.agent! };
  }

  /**
   * The first live session among the cookie's tokens. A browser may send several cookies of one name (another site on
   * a parent domain can plant one); a planted one must not lock out the real session, so each is looked up.
   */
  private async liveSession(tokens: string[] | undefined): Promise<ConsoleSessionRow | undefined> {
    for (const token of tokens ?? []) {
      const row = await this.sessions.find(sha256(token));
      if (row && this.live(row, token)) return row;
    }
    return undefined;
  }

  private live(row: ConsoleSessionRow, token: string): boolean {
    if (row.role !== 'admin') return row.agent !== null;
    const current = this.adminTokens.token();
    if (!current || !row.adminTokenHash) return false;
    return timingSafeEqual(Buffer.from(adminTokenMac(token, current)), Buffer.from(row.adminTokenHash));
  }

  private async open(role: ConsoleRole, agentKeyId: string | null, adminTokenHash: (token: string) => string | null, expiresAt: Date): Promise<string> {
    await this.sessions.deleteEnded();
    const token = randomBytes(32).toString('base64url');
    await this.sessions.create({ tokenHash: sha256(token), role, agentKeyId, adminTokenHash: adminTokenHash(token), expiresAt });
    await this.sessions.keepNewest(agentKeyId, SESSIONS_PER_KEY);
    return token;
  }
}

/** The well-formed console tokens in the request's Cookie header (at most 4 looked at); undefined when it has none. */
const readConsoleCookies = (request: FastifyRequest) => readCookieValues(request.headers.cookie, consoleCookieName(request), TOKEN, 4);

/** Fetch metadata a page cannot forge, or else an Origin naming this host. */
function sameOrigin(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'same-origin') return true;
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
