import { hash, randomBytes } from 'node:crypto';

/** A new agent key: 32 random bytes, URL-safe, with a prefix that makes it recognisable in a leak scan. */
export function generateAgentKey(): string {
  return `agk_${randomBytes(32).toString('base64url')}`;
}

/** Keys are stored and looked up by SHA-256 only; the key itself is never stored. Runs for every agent request. */
export function hashAgentKey(key: string): string {
  return hash('sha256', key, 'hex');
}
