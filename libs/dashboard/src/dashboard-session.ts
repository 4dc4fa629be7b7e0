import { createHmac, timingSafeEqual } from 'node:crypto';

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

/** The value of one cookie from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

function mac(adminToken: string, expiry: string): string {
  return createHmac('sha256', adminToken).update(`queue-dashboard:${expiry}`).digest('base64url');
}
