import { parseHash, parseSize } from './numbers.js';
import { refuse } from './witness-refusal.js';

/** The largest add-checkpoint body taken: a checkpoint, its signatures and 63 proof lines fit in a few KiB. */
export const MAX_BODY_BYTES = 64 * 1024;
/** c2sp.org/tlog-witness: a client MUST NOT send more than 63 consistency proof lines (a proof of sizes below 2^64). */
export const MAX_PROOF_LINES = 63;

/** An add-checkpoint request body, read but not checked against any key or state. */
export interface AddCheckpointBody {
  /** The size of the previous checkpoint the client believes the witness cosigned. */
  oldSize: bigint;
  /** The RFC 6962 consistency proof from the old size to the checkpoint's size. */
  proof: Buffer[];
  /** The signed checkpoint note, exactly as sent. */
  note: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads `old <size>\n`, at most 63 base64 hash lines, an empty line, then the signed checkpoint, as c2sp.org/tlog-witness
 * lays it out. Anything else is refused with a 400 that names the line (413 for a body over 64 KiB).
 */
export function parseAddCheckpointBody(body: Buffer | string): AddCheckpointBody {
  const bytes = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  if (bytes > MAX_BODY_BYTES) refuse(413, `request body is ${bytes} bytes; the limit is ${MAX_BODY_BYTES}`);
  const text = typeof body === 'string' ? body : decode(body);
  if (typeof body === 'string' && !text.isWellFormed()) refuse(400, 'request body is not valid UTF-8 (lone surrogate)');

  const firstEnd = text.indexOf('\n');
  if (firstEnd < 0) refuse(400, 'request body must start with an old size line "old <size>" ending in a newline');
  const oldLine = text.slice(0, firstEnd);
  if (!oldLine.startsWith('old ')) refuse(400, 'line 1 must be the old size line "old <size>"');
  const oldSize = parseSize(oldLine.slice(4));
  if (oldSize === undefined) refuse(400, 'line 1: the old size must be an ASCII decimal without leading zeros, at most 2^63-1');

  const proof: Buffer[] = [];
  let start = firstEnd + 1;
  for (let line = 2; ; line++) {
    const end = text.indexOf('\n', start);
    if (end < 0) refuse(400, 'request body has no empty line between the consistency proof and the checkpoint');
    const hashText = text.slice(start, end);
    start = end + 1;
    if (hashText === '') break;
    if (proof.length === MAX_PROOF_LINES) refuse(400, `more than ${MAX_PROOF_LINES} consistency proof lines`);
    const hash = parseHash(hashText);
    if (hash === undefined) refuse(400, `line ${line}: a consistency proof line must be one 32-byte hash in canonical standard base64`);
    proof.push(hash);
  }
  const note = text.slice(start);
  if (note === '') refuse(400, 'request body has no checkpoint after the empty line');
  return { oldSize, proof, note };
}

function decode(body: Buffer): string {
  try {
    return strictUtf8.decode(body);
  } catch {
    refuse(400, 'request body is not valid UTF-8');
  }
}
