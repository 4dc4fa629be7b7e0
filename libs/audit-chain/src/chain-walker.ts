import { chainHash, GENESIS_HASH } from './chain.js';

/** How a walked chain proved where it starts. */
export type ChainStart =
  /** Its first link is seq 1, from the genesis hash. */
  | 'genesis'
  /** A checkpoint whose signature was verified states the link before its first. */
  | 'signed checkpoint'
  /** A checkpoint states the link before its first, but its signature was not checked (no public key given). */
  | 'unchecked checkpoint'
  /** Nothing: a window that starts mid-chain with no checkpoint before it. */
  | 'not anchored';

/** The words a walker uses in its findings. */
export interface ChainNouns {
  /** `log` or `receipt`. */
  item: string;
  /** Why a hash that does not match matters, e.g. "the log was changed after it was accepted". */
  changed: string;
}

/**
 * Walks one hash chain link by link, holding only the previous link: each link's seq follows the one before, its
 * prevHash is the previous hash, and its hash is SHA-256 of prevHash and its canonical text. A checkpoint before the
 * first link anchors the chain there; a checkpoint after a link must state that link. Each method answers the rule a
 * link broke, or undefined.
 */
export class ChainWalker {
  count = 0;
  first?: bigint;
  last?: { seq: bigint; hash: string };
  start?: ChainStart;
  private anchor?: { seq: bigint; hash: string; signed: boolean };

  constructor(private readonly nouns: ChainNouns) {}

  /** A checkpoint of this chain (signed: its signature was verified). */
  checkpoint(seq: bigint, hash: string, signed: boolean): string | undefined {
    if (!this.last) {
      if (this.anchor) return `a second checkpoint before the first ${this.nouns.item}`;
      this.anchor = { seq, hash, signed };
      return undefined;
    }
    if (this.last.seq !== seq || this.last.hash !== hash) return `checkpoint at seq ${seq} states hash ${hash}, which is not the chain's`;
    return undefined;
  }

  link(seq: bigint, prevHash: string, hash: string, canonical: string): string | undefined {
    const item = this.nouns.item;
    if (this.last) {
      if (seq !== this.last.seq + 1n) return `seq ${seq} follows seq ${this.last.seq}: ${seq > this.last.seq ? `${item}s are missing` : 'out of order'}`;
      if (prevHash !== this.last.hash) return `prevHash does not match the hash of seq ${this.last.seq}`;
    } else if (this.anchor) {
      if (seq !== this.anchor.seq + 1n)
        return `seq ${seq} follows the checkpoint at seq ${this.anchor.seq}: ${seq > this.anchor.seq ? `${item}s are missing` : 'out of order'}`;
      if (prevHash !== this.anchor.hash) return `prevHash does not match the hash the checkpoint at seq ${this.anchor.seq} states`;
      this.start = this.anchor.seq === 0n ? 'genesis' : this.anchor.signed ? 'signed checkpoint' : 'unchecked checkpoint';
    } else if (seq === 1n) {
      if (prevHash !== GENESIS_HASH) return `the first ${item} of the chain does not start from the genesis hash`;
      this.start = 'genesis';
    } else {
      this.start = 'not anchored';
    }
    if (chainHash(prevHash, canonical) !== hash) return `the hash does not match the ${item}: ${this.nouns.changed}`;
    this.first ??= seq;
    this.last = { seq, hash };
    this.count++;
    return undefined;
  }
}
