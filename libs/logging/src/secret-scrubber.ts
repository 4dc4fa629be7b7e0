/** Values that must never appear in a log line, whatever code wrote it. */
const secrets = new Set<string>();
let pattern: RegExp | undefined;
/** The same secrets with any of their characters percent-encoded, as a URL may hold them: for text with a `%`. */
let encodedPattern: RegExp | undefined;

/**
 * Registers a secret (credential, passphrase, token) so that every log line has it replaced by `[redacted]`: a last
 * line of defence behind the rule that code never logs secrets. Short values are ignored, since they would redact
 * ordinary words.
 */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < 8 || secrets.has(value)) return;
  secrets.add(value);
  const sorted = [...secrets].sort((a, b) => b.length - a.length);
  pattern = new RegExp(sorted.map((secret) => [...secret].map(literal).join('')).join('|'), 'g');
  encodedPattern = new RegExp(sorted.map((secret) => [...secret].map((ch) => `(?:${literal(ch)}|${percentEncoded(ch)})`).join('')).join('|'), 'g');
}

const literal = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A character's UTF-8 bytes as `%XX` each, either case of hex digit. */
const percentEncoded = (ch: string) =>
  [...Buffer.from(ch)].map((byte) => `%${[...byte.toString(16).padStart(2, '0')].map((d) => (d >= 'a' ? `[${d}${d.toUpperCase()}]` : d)).join('')}`).join('');

/**
 * The agent keys the gateway issues (agent-key.ts), wherever one turns up (a URL's query, a message), plain or with
 * any of its characters percent-encoded as a URL may hold them.
 */
const AGENT_KEY = /(?:a|%61)(?:g|%67)(?:k|%6b)(?:_|%5f)(?:[A-Za-z0-9_-]|%[0-9a-f]{2}){43}/gi;

export function scrub(text: string): string {
  if (text.length === 0) return text;
  const scrubbed = text.includes('agk_') || text.includes('%') ? text.replace(AGENT_KEY, '[redacted]') : text;
  const secretsIn = scrubbed.includes('%') ? encodedPattern : pattern;
  return secretsIn ? scrubbed.replace(secretsIn, '[redacted]') : scrubbed;
}
