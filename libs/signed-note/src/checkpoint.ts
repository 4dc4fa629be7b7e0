import { decodeBase64, encodeBase64, parseDecimal, UINT64_MAX } from './encoding.js';
import { fail, SignedNoteError } from './errors.js';
import { checkNoteText } from './note.js';

/** The note text of c2sp.org/tlog-checkpoint: origin, tree size, RFC 6962 root hash, then extension lines. */
export interface Checkpoint {
  origin: string;
  /** Leaves in the tree; a uint64, as every tlog implementation stores it. */
  size: bigint;
  /** SHA-256 root hash, 32 bytes. */
  rootHash: Uint8Array;
  /** Opaque non-empty lines after the root hash, without their newlines. */
  extensions: string[];
}

export const ROOT_HASH_SIZE = 32;

/** Parses a checkpoint body strictly; the spec's MUSTs and a 32-byte root. Errors say which line is wrong. */
export function parseCheckpoint(text: string): Checkpoint {
  try {
    checkNoteText(text, 'the checkpoint');
  } catch (error) {
    throw new SignedNoteError('malformed-checkpoint', (error as Error).message.replace('malformed note', 'malformed checkpoint'));
  }
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) fail('malformed-checkpoint', `malformed checkpoint: ${lines.length} lines, at least 3 are required`);
  const [origin, sizeText, rootText, ...extensions] = lines;
  if (origin === '') fail('malformed-checkpoint', 'malformed checkpoint: empty origin line');
  const size = parseDecimal(sizeText, UINT64_MAX);
  if (size === undefined) fail('malformed-checkpoint', 'malformed checkpoint: tree size is not a decimal uint64 without leading zeros');
  let rootHash: Buffer;
  try {
    rootHash = decodeBase64(rootText, 'root hash');
  } catch {
    fail('malformed-checkpoint', 'malformed checkpoint: root hash is not canonical standard base64');
  }
  if (rootHash.length !== ROOT_HASH_SIZE) fail('malformed-checkpoint', `malformed checkpoint: root hash is ${rootHash.length} bytes, not ${ROOT_HASH_SIZE}`);
  if (extensions.some((line) => line === '')) fail('malformed-checkpoint', 'malformed checkpoint: empty extension line');
  return { origin, size, rootHash, extensions };
}

/** Formats a checkpoint body; refuses anything parseCheckpoint would refuse, so what we sign we can read back. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, rootHash, extensions } = checkpoint;
  const text = `${[origin, size.toString(), encodeBase64(rootHash), ...extensions].join('\n')}\n`;
  if (origin.includes('\n') || extensions.some((line) => line.includes('\n')) || size < 0n) {
    fail('malformed-checkpoint', 'malformed checkpoint: origin and extension lines must be single lines, the size not negative');
  }
  parseCheckpoint(text);
  return text;
}
