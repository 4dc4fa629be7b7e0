/** Values that must never appear in a log line, whatever code wrote it. */
const secrets = new Set<string>();
let pattern: RegExp | undefined;

/**
 * Registers a secret (credential, passphrase, token) so that every log line has it replaced by `[redacted]`: a last
 * line of defence behind the rule that code never logs secrets. Short values are ignored, since they would redact
 * ordinary words.
 */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < 8 || secrets.has(value)) return;
  secrets.add(value);
  const alternatives = [...secrets].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  pattern = new RegExp(alternatives.join('|'), 'g');
}

/**
 * The agent keys the gateway issues (agent-key.ts), wherever one turns up (a URL's query, a message), plain or with
 * any of its characters percent-encoded as a URL may hold them.
 */
const AGENT_KEY = /(?:a|%61)(?:g|%67)(?:k|%6b)(?:_|%5f)(?:[A-Za-z0-9_-]|%[0-9a-f]{2}){43}/gi;

export function scrub(text: string): string {
  if (text.length === 0) return text;
  const scrubbed = text.includes('agk_') || text.includes('%') ? text.replace(AGENT_KEY, '[redacted]') : text;
  return pattern ? scrubbed.replace(pattern, '[redacted]') : scrubbed;
}
