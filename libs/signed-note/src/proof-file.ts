import { type Checkpoint, parseCheckpoint, ROOT_HASH_SIZE } from './checkpoint.js';
import { decodeBase64, decodeUtf8, encodeBase64, parseDecimal, UINT64_MAX } from './encoding.js';
import { fail, SignedNoteError } from './errors.js';
import { DEFAULT_MAX_NOTE_BYTES, type NoteLimits, parseNote, type ParsedNote } from './note.js';

/** c2sp.org/tlog-proof@v1: an entry's index, its inclusion proof, optional extra data, and the signed checkpoint. */
export interface TlogProof {
  /** Opaque, unauthenticated application data; absent means no `extra` line. */
  extra?: Uint8Array;
  index: bigint;
  /** From the leaf's sibling up to the root's child, 32 bytes each. */
  hashes: Uint8Array[];
  /** The signed checkpoint note, verbatim. */
  checkpoint: string;
}

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';
/** A tree of at most 2^64 leaves has inclusion proofs of at most 64 hashes. */
export const MAX_PROOF_HASHES = 64;

function proofError(message: string): never {
  fail('malformed-proof', `malformed tlog proof: ${message}`);
}

// The checkpoint must be a signed note with a checkpoint body, so a proof that parses is one a verifier can open;
// whether its signatures are any good is openCheckpoint's business.
function checkCheckpoint(checkpoint: string, limits: NoteLimits): { note: ParsedNote; body: Checkpoint } {
  try {
    const note = parseNote(checkpoint, limits);
    return { note, body: parseCheckpoint(note.text) };
  } catch (error) {
    if (error instanceof SignedNoteError) proofError(`checkpoint: ${error.message}`);
    throw error;
  }
}

export function formatTlogProof(proof: TlogProof, limits: NoteLimits = {}): string {
  if (proof.index < 0n || proof.index > UINT64_MAX) proofError('index must be a uint64');
  if (proof.hashes.length > MAX_PROOF_HASHES) proofError(`more than ${MAX_PROOF_HASHES} proof hashes`);
  if (proof.hashes.some((h) => h.length !== ROOT_HASH_SIZE)) proofError(`proof hashes must be ${ROOT_HASH_SIZE} bytes`);
  checkCheckpoint(proof.checkpoint, limits);
  const extra = proof.extra === undefined ? '' : `extra ${encodeBase64(proof.extra)}\n`;
  const hashes = proof.hashes.map((h) => `${encodeBase64(h)}\n`).join('');
  return `${TLOG_PROOF_HEADER}\n${extra}index ${proof.index}\n${hashes}\n${proof.checkpoint}`;
}

/** Parses a proof strictly: every line in its place, canonical base64, 32-byte hashes, a well-formed signed checkpoint. */
export function parseTlogProof(input: string | Uint8Array, limits: NoteLimits = {}): TlogProof & { origin: string } {
  // The header, an extra line of plausible size and 64 hashes fit in a few kilobytes beyond the checkpoint's limit.
  const maxBytes = (limits.maxBytes ?? DEFAULT_MAX_NOTE_BYTES) * 2;
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length;
  if (size > maxBytes) proofError(`${size} bytes, the limit is ${maxBytes}`);
  const text = typeof input === 'string' ? input : decodeUtf8(input, 'malformed tlog proof: the proof');
  const lineEnd = (from: number): number => {
    const end = text.indexOf('\n', from);
    if (end < 0) proofError('ends without a newline before the checkpoint');
    return end;
  };
  let at = 0;
  let end = lineEnd(at);
  if (text.slice(at, end) !== TLOG_PROOF_HEADER) proofError(`first line must be ${TLOG_PROOF_HEADER}`);
  at = end + 1;
  end = lineEnd(at);
  let extra: Buffer | undefined;
  if (text.startsWith('extra ', at)) {
    extra = decodeField(() => decodeBase64(text.slice(at + 'extra '.length, end), 'extra data'));
    at = end + 1;
    end = lineEnd(at);
  }
  if (!text.startsWith('index ', at)) proofError('missing index line');
  const index = parseDecimal(text.slice(at + 'index '.length, end), UINT64_MAX);
  if (index === undefined) proofError('index is not a decimal uint64 without leading zeros');
  at = end + 1;
  const hashes: Buffer[] = [];
  for (end = lineEnd(at); end > at; at = end + 1, end = lineEnd(at)) {
    if (hashes.length === MAX_PROOF_HASHES) proofError(`more than ${MAX_PROOF_HASHES} proof hashes`);
    const hash = decodeField(() => decodeBase64(text.slice(at, end), `proof hash ${hashes.length + 1}`));
    if (hash.length !== ROOT_HASH_SIZE) proofError(`proof hash ${hashes.length + 1} is ${hash.length} bytes, not ${ROOT_HASH_SIZE}`);
    hashes.push(hash);
  }
  const checkpoint = text.slice(end + 1);
  const { body } = checkCheckpoint(checkpoint, limits);
  return { ...(extra === undefined ? {} : { extra }), index, hashes, checkpoint, origin: body.origin };
}

function decodeField(decode: () => Buffer): Buffer {
  try {
    return decode();
  } catch (error) {
    if (error instanceof SignedNoteError) proofError(error.message);
    throw error;
  }
}
