import { ed25519Verifier, keyLabel, type NoteVerifier, SignedNoteError } from '#libs/signed-note';

/**
 * A log the witness cosigns for: its origin line and its Ed25519 (0x01) note verifier key. An origin ending in `/*` is
 * a pattern, an extension of this project: `example.org/*` stands for every origin `example.org/<segment>` (one
 * non-empty segment, no `/`), each tracked as a log of its own, all checked with this key. The gateway has one
 * origin per account (`<AUDIT_ORIGIN>/<accountId>`), all signed by one key.
 */
export interface KnownLog {
  origin: string;
  vkey: string;
}

const PATTERN_SUFFIX = '/*';

/** Thrown for a list of known logs the witness cannot use; the message names the entry and the rule. */
export class KnownLogsError extends Error {
  override readonly name = 'KnownLogsError';
}

/**
 * Parses `<origin> <vkey>` entries separated by new lines or `;` (the form of WITNESS_LOGS); blank entries are skipped.
 * `source` names the setting in errors.
 */
export function parseKnownLogs(text: string, source = 'WITNESS_LOGS'): KnownLog[] {
  const entries = text
    .split(/[;\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry, i) => {
    const parts = entry.split(/\s+/);
    if (parts.length !== 2) throw new KnownLogsError(`${source} entry ${i + 1}: expected "<origin> <verifier key>", got ${parts.length} word(s)`);
    return { origin: parts[0], vkey: parts[1] };
  });
}

interface Entry {
  verifier: NoteVerifier;
  /** For a pattern, what the origin must start with (the slash included); undefined for an exact origin. */
  prefix?: string;
  origin: string;
}

/** The known logs, ready to answer which keys the witness trusts for an origin. */
export class KnownLogs {
  private readonly entries: Entry[];

  constructor(logs: readonly KnownLog[], source = 'WITNESS_LOGS') {
    const byLabel = new Map<string, string>();
    this.entries = logs.map(({ origin, vkey }, i) => {
      const where = `${source} entry ${i + 1} (${JSON.stringify(origin)})`;
      if (!origin || /\s/.test(origin)) throw new KnownLogsError(`${where}: the origin must be non-empty, without white space`);
      const prefix = origin.endsWith(PATTERN_SUFFIX) ? origin.slice(0, -1) : undefined;
      if (prefix === '/') throw new KnownLogsError(`${where}: a pattern needs a prefix before "/*"`);
      let verifier: NoteVerifier;
      try {
        verifier = ed25519Verifier(vkey);
      } catch (error) {
        if (error instanceof SignedNoteError) throw new KnownLogsError(`${where}: ${error.message} (a log's key must be a plain Ed25519 0x01 vkey)`);
        throw error;
      }
      // A label names one key everywhere: two keys under one name and key ID would make a signature line ambiguous.
      const label = keyLabel(verifier.name, verifier.keyId);
      if (byLabel.has(label) && byLabel.get(label) !== vkey)
        throw new KnownLogsError(`${where}: another entry has a different key with the same name and key ID ${label}`);
      byLabel.set(label, vkey);
      return { verifier, prefix, origin };
    });
  }

  /** The verifiers of every entry that covers the origin, one per key: none means the origin is unknown (404). */
  verifiersFor(origin: string): NoteVerifier[] {
    const found = new Map<string, NoteVerifier>();
    for (const entry of this.entries) {
      if (entry.prefix === undefined ? entry.origin !== origin : !matchesPattern(entry.prefix, origin)) continue;
      found.set(keyLabel(entry.verifier.name, entry.verifier.keyId), entry.verifier);
    }
    return [...found.values()];
  }
}

/**
 * The segment a pattern stands for: an account id as the gateway allows it (1-64 of a-z, 0-9, _ and -, starting with a
 * letter or digit). Anything wider would let the log's key holder start look-alike origins (`dеfault` with a Cyrillic
 * е, `DEFAULT`, a trailing space, a bidi override) that the witness cosigns as new logs.
 */
const SEGMENT = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function matchesPattern(prefix: string, origin: string): boolean {
  return origin.startsWith(prefix) && SEGMENT.test(origin.slice(prefix.length));
}
