import { decodeUtf8, encodeBase64, encodeUtf8, isCanonicalBase64 } from './encoding.js';
import { fail, SignedNoteError } from './errors.js';
import { isValidKeyName, keyLabel, type NoteSigner, type NoteVerifier } from './keys.js';

/** One signature line: `— <name> base64(key ID ‖ signature)`. */
export interface NoteSignature {
  name: string;
  keyId: number;
  /** The bytes after the key ID. */
  signature: Buffer;
  /** The base64 exactly as the line carries it. */
  base64: string;
}

/** A note split into its text (final newline included) and its signature lines, nothing verified. */
export interface ParsedNote {
  text: string;
  signatures: NoteSignature[];
}

/** An opened note: the text, the signatures that verified, and those of keys the caller does not know. */
export interface OpenedNote {
  text: string;
  verified: NoteSignature[];
  unverified: NoteSignature[];
}

export interface NoteLimits {
  /** Signature lines, known or not; 100 by default; the spec asks for at least 16. */
  maxSignatures?: number;
  /** Bytes of the whole signed note, checked before anything else is read. */
  maxBytes?: number;
}

export interface OpenOptions extends NoteLimits {
  /**
   * A second line for a known key: 'reject' (the default) fails the note; 'ignore' drops byte-identical repeats but
   * still verifies a different line for the same key. Repeats of unknown keys are always dropped.
   */
  duplicates?: 'reject' | 'ignore';
}

export const DEFAULT_MAX_SIGNATURES = 100;
export const DEFAULT_MAX_NOTE_BYTES = 1 << 20;

const SIGNATURE_PREFIX = '— ';
const SPLIT = '\n\n';

/** Checks the text of a note: valid UTF-8, no control character but newline, ending in a newline. */
export function checkNoteText(text: string, what = 'the text'): void {
  if (!text.endsWith('\n')) fail('malformed-note', `malformed note: ${what} must end with a newline`);
  // A loop, not a regular expression of control characters (the linter forbids those); as fast, and it says where.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x0a) fail('malformed-note', `malformed note: control character U+${code.toString(16).padStart(4, '0')} at offset ${i}`);
  }
  if (!text.isWellFormed()) fail('malformed-note', 'malformed note: not valid UTF-8 (lone surrogate)');
}

function asText(note: string | Uint8Array, maxBytes: number): string {
  const size = typeof note === 'string' ? Buffer.byteLength(note, 'utf8') : note.length;
  if (size > maxBytes) fail('note-too-large', `note too large: ${size} bytes, the limit is ${maxBytes}`);
  return typeof note === 'string' ? note : decodeUtf8(note, 'malformed note: the note');
}

/** Splits a signed note into text and signature lines, checking syntax and limits only. */
export function parseNote(note: string | Uint8Array, limits: NoteLimits = {}): ParsedNote {
  const maxSignatures = limits.maxSignatures ?? DEFAULT_MAX_SIGNATURES;
  const message = asText(note, limits.maxBytes ?? DEFAULT_MAX_NOTE_BYTES);
  checkNoteText(message, 'the signed note');
  // The text may hold blank lines; the signatures start after the last one.
  const split = message.lastIndexOf(SPLIT);
  if (split < 0) fail('malformed-note', 'malformed note: no blank line before the signatures');
  const text = message.slice(0, split + 1);
  const lines = message.slice(split + 2, -1);
  if (lines.length === 0) fail('malformed-note', 'malformed note: no signature lines');
  const signatures: NoteSignature[] = [];
  let start = 0;
  for (let number = 1; start <= lines.length; number++) {
    if (number > maxSignatures) fail('too-many-signatures', `malformed note: more than ${maxSignatures} signature lines`);
    const end = lines.indexOf('\n', start);
    const line = lines.slice(start, end < 0 ? lines.length : end);
    start = end < 0 ? lines.length + 1 : end + 1;
    signatures.push(parseSignatureLine(line, number));
  }
  return { text, signatures };
}

function parseSignatureLine(line: string, number: number): NoteSignature {
  const where = `signature line ${number}`;
  if (!line.startsWith(SIGNATURE_PREFIX)) fail('malformed-note', `malformed note: ${where} does not start with "— "`);
  const rest = line.slice(SIGNATURE_PREFIX.length);
  const space = rest.indexOf(' ');
  if (space < 0) fail('malformed-note', `malformed note: ${where} has no space between key name and signature`);
  const name = rest.slice(0, space);
  const base64 = rest.slice(space + 1);
  if (!isValidKeyName(name)) fail('malformed-note', `malformed note: ${where} has an invalid key name`);
  if (!isCanonicalBase64(base64)) fail('bad-base64', `malformed note: ${where} (${name}) is not canonical standard base64`);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length < 5) fail('malformed-note', `malformed note: ${where} (${name}) is too short for a key ID and a signature`);
  return { name, keyId: bytes.readUInt32BE(0), signature: bytes.subarray(4), base64 };
}

/** Known verifiers by `name+keyid`; two for one label make that label ambiguous, which matters only if it is used. */
function indexVerifiers(verifiers: readonly NoteVerifier[]): Map<string, NoteVerifier[]> {
  const byLabel = new Map<string, NoteVerifier[]>();
  for (const v of verifiers) {
    const label = keyLabel(v.name, v.keyId);
    byLabel.set(label, [...(byLabel.get(label) ?? []), v]);
  }
  return byLabel;
}

/**
 * Opens a signed note: every signature of a known key (name and key ID both match) must verify, at least one must,
 * and signatures of other keys are returned unverified, as c2sp.org/signed-note requires.
 */
export function openNote(note: string | Uint8Array, verifiers: readonly NoteVerifier[], options: OpenOptions = {}): OpenedNote {
  const parsed = parseNote(note, options);
  const message = encodeUtf8(parsed.text, 'note text');
  const known = indexVerifiers(verifiers);
  const verified: NoteSignature[] = [];
  const unverified: NoteSignature[] = [];
  const seenKnown = new Map<string, string>();
  const seenUnknown = new Set<string>();
  for (const sig of parsed.signatures) {
    const label = keyLabel(sig.name, sig.keyId);
    const candidates = known.get(label);
    if (!candidates) {
      const line = `${sig.name} ${sig.base64}`;
      if (!seenUnknown.has(line)) unverified.push(sig);
      seenUnknown.add(line);
      continue;
    }
    if (candidates.length > 1) fail('ambiguous-key', `ambiguous key ${label}: more than one known verifier has this name and key ID`);
    const previous = seenKnown.get(label);
    if (previous !== undefined && (options.duplicates ?? 'reject') === 'reject') {
      fail('duplicate-signature', `duplicate signature for key ${label}`);
    }
    if (previous === sig.base64) continue;
    if (!candidates[0].verify(message, sig.signature)) fail('invalid-signature', `invalid signature for key ${label}`);
    if (previous === undefined) verified.push(sig);
    seenKnown.set(label, sig.base64);
  }
  if (verified.length === 0) {
    throw new UnverifiedNoteError(parsed.text, unverified);
  }
  return { text: parsed.text, verified, unverified };
}

/** No signature of a known key: the note is returned for inspection, but must not be trusted. */
export class UnverifiedNoteError extends SignedNoteError {
  constructor(
    readonly text: string,
    readonly unverified: NoteSignature[],
  ) {
    const names = unverified.map((s) => keyLabel(s.name, s.keyId)).join(', ');
    super('no-verified-signature', `note has no verifiable signatures (signed only by unknown keys: ${names || 'none'})`);
  }
}

export function formatSignatureLine(name: string, keyId: number, signature: Uint8Array): string {
  const id = Buffer.alloc(4);
  id.writeUInt32BE(keyId >>> 0);
  return `${SIGNATURE_PREFIX}${name} ${encodeBase64(Buffer.concat([id, signature]))}\n`;
}

/**
 * Signs a note text with each signer and returns the signed note. Existing signatures are kept first, in order,
 * except those of a signer's key, which the new signature replaces.
 */
export function signNote(note: string | ParsedNote, ...signers: NoteSigner[]): string {
  const { text, signatures } = typeof note === 'string' ? { text: note, signatures: [] } : note;
  checkNoteText(text);
  const message = encodeUtf8(text, 'note text');
  const replaced = new Set<string>();
  let fresh = '';
  for (const s of signers) {
    if (!isValidKeyName(s.name)) fail('invalid-signer', `invalid signer: key name ${JSON.stringify(s.name)} is empty or contains white space or "+"`);
    replaced.add(keyLabel(s.name, s.keyId));
    fresh += formatSignatureLine(s.name, s.keyId, s.sign(message));
  }
  let kept = '';
  for (const sig of signatures) {
    if (!isValidKeyName(sig.name)) fail('malformed-note', `malformed note: existing signature has an invalid key name`);
    if (replaced.has(keyLabel(sig.name, sig.keyId))) continue;
    const raw = isCanonicalBase64(sig.base64) ? Buffer.from(sig.base64, 'base64') : undefined;
    if (!raw || raw.length < 5 || raw.readUInt32BE(0) !== sig.keyId) {
      fail('malformed-note', `malformed note: existing signature ${keyLabel(sig.name, sig.keyId)} does not encode its key ID`);
    }
    kept += `${SIGNATURE_PREFIX}${sig.name} ${sig.base64}\n`;
  }
  if (kept === '' && fresh === '') fail('malformed-note', 'malformed note: a signed note needs at least one signature');
  return `${text}\n${kept}${fresh}`;
}
