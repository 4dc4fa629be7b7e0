import { createHmac, timingSafeEqual } from 'node:crypto';
import { MALFORMED_COOKIE, readSingleCookie } from '#libs/accounts';

/** A dashboard sign-in lasts this long. */
export const SESSION_MS = 8 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'gw_admin_session';

/**
 * The session cookie is `<expiry ms>.<HMAC-SHA256(admin token, expiry)>`: it proves the admin token was given without
 * holding the token, ends by itself, and every session ends when the token changes. Nothing is stored.
 */
export function issueSession(adminToken: string, now = Date.now()): string {
  const expiry = String(now + SESSION_MS);
  return `${expiry}.${mac(adminToken, expiry)}`;
}

export function validSession(adminToken: string, cookie: string | undefined, now = Date.now()): boolean {
  const [expiry, tag] = (cookie ?? '').split('.');
  if (!expiry || !tag || !/^\d+$/.test(expiry) || Number(expiry) < now) return false;
  const expected = Buffer.from(mac(adminToken, expiry));
  const given = Buffer.from(tag);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The form of every session cookie issueSession makes: nothing in it is ever percent-encoded. */
const SESSION_VALUE = /^\d{1,15}\.[A-Za-z0-9_-]{43}$/;

/** A session cookie that this gateway cannot have set: garbage, percent-encoded, or sent more than once. */
export const MALFORMED = MALFORMED_COOKIE;

/** The session cookie of a Cookie header: its value, MALFORMED, or undefined when there is none. */
export const readSessionCookie = (header: string | undefined) => readSingleCookie(header, SESSION_COOKIE, SESSION_VALUE);

function mac(adminToken: string, expiry: string): string {
  return createHmac('sha256', adminToken).update(`queue-dashboard:${expiry}`).digest('base64url');
}
