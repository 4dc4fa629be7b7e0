/** What stands for the account's provider key wherever a provider echoes it: JSON-, SSE- and header-safe text. */
export const PROVIDER_KEY_MASK = '[provider key]';

/**
 * Keys shorter than this are not masked: a local server's placeholder key ("ollama", "x", or none) is no secret, and
 * masking every "x" or "ollama" would rewrite the answers themselves (model names included).
 */
export const MIN_MASKED_KEY_LENGTH = 8;

const EMPTY = Buffer.alloc(0);
const MASK = Buffer.from(PROVIDER_KEY_MASK);

/**
 * Replaces the provider key in an answer's bytes as they stream, as a replaceAll over the whole answer would (left to
 * right, matches not overlapping): a chunk's end that could be the key's start (at most key length − 1 bytes) is
 * held back until the next chunk, or `end()`, shows whether it is; nothing else is held.
 */
export class ProviderKeyMask {
  private readonly key: Buffer | undefined;
  private held: Buffer = EMPTY;

  constructor(key: string | undefined) {
    this.key = key !== undefined && key.length >= MIN_MASKED_KEY_LENGTH ? Buffer.from(key) : undefined;
  }

  /** Takes a chunk; returns the bytes that may be passed on now (the chunk itself when it holds no part of the key). */
  push(chunk: Buffer): Buffer {
    const key = this.key;
    if (key === undefined) return chunk;
    const bytes = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    let at = bytes.indexOf(key);
    if (at === -1) {
      const hold = heldFrom(bytes, key, 0);
      if (hold === bytes.length) {
        this.held = EMPTY;
        return bytes;
      }
      this.held = bytes.subarray(hold);
      return bytes.subarray(0, hold);
    }
    const parts: Buffer[] = [];
    let from = 0;
    for (; at !== -1; at = bytes.indexOf(key, from)) {
      parts.push(bytes.subarray(from, at), MASK);
      from = at + key.length;
    }
    const hold = heldFrom(bytes, key, from);
    parts.push(bytes.subarray(from, hold));
    this.held = bytes.subarray(hold);
    return Buffer.concat(parts);
  }

  /** The bytes held back at the answer's end: not the key, since nothing follows them. */
  end(): Buffer {
    const rest = this.held;
    this.held = EMPTY;
    return rest;
  }

  /** Masks a whole text (a header's value). */
  text(value: string): string {
    return this.key === undefined ? value : value.replaceAll(this.key.toString(), PROVIDER_KEY_MASK);
  }
}

/** Where the bytes' end that may begin the key starts (bytes.length when none may): at or after `from`. */
function heldFrom(bytes: Buffer, key: Buffer, from: number): number {
  for (let i = Math.max(from, bytes.length - key.length + 1); i < bytes.length; i++) {
    if (bytes.compare(key, 0, bytes.length - i, i) === 0) return i;
  }
  return bytes.length;
}
