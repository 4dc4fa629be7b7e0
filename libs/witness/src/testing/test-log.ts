import { randomBytes } from 'node:crypto';
import { append, consistencyProof, type HashReader, leafHash, rootOf, storedAt } from '#libs/merkle-tree';
import { ed25519Signer, formatCheckpoint, generateKey, type NoteSigner, signNote } from '#libs/signed-note';

/**
 * A transparency log for the tests: random leaves in a Merkle tree built with libs/merkle-tree's frontier, its
 * checkpoints signed with a fresh key, and consistency proofs read from its rows in memory.
 */
export class TestLog {
  readonly key: { signerKey: string; verifierKey: string };
  readonly signer: NoteSigner;
  private readonly rows: Buffer[][] = [];
  private frontier: Buffer[] = [];
  private readonly roots: Buffer[] = [rootOf([], 0)];

  /** The key: a fresh one named `key` (the origin by default), or one given, so that several logs share it like the gateway's accounts. */
  constructor(
    readonly origin: string,
    key: string | { signerKey: string; verifierKey: string } = origin,
  ) {
    this.key = typeof key === 'string' ? generateKey(key) : key;
    this.signer = ed25519Signer(this.key.signerKey);
  }

  get size(): number {
    return this.rows.length;
  }

  /** Appends `count` random leaves. */
  grow(count: number): this {
    for (let i = 0; i < count; i++) {
      const { stored, frontier } = append(this.frontier, this.rows.length, leafHash(randomBytes(16)));
      this.rows.push(stored);
      this.frontier = frontier;
      this.roots.push(rootOf(frontier, this.rows.length));
    }
    return this;
  }

  root(size = this.size): Buffer {
    return this.roots[size];
  }

  /** The checkpoint of the tree of `size` leaves, signed by the log (and any other signers). */
  checkpoint(size = this.size, ...others: NoteSigner[]): string {
    return signNote(formatCheckpoint({ origin: this.origin, size: BigInt(size), rootHash: this.root(size), extensions: [] }), this.signer, ...others);
  }

  readonly read: HashReader = async (refs) =>
    refs.map((ref) => {
      const { leafIndex, level } = storedAt(ref);
      return this.rows[Number(leafIndex)][level];
    });

  async proof(from: number, to = this.size): Promise<Buffer[]> {
    return from === 0 || from === to ? [] : consistencyProof(from, to, this.read);
  }

  /** An add-checkpoint body from `old` to the tree of `size` leaves, with the proof between them. */
  async body(old: number, size = this.size): Promise<string> {
    const proof = await this.proof(old, size);
    return `old ${old}\n${proof.map((hash) => `${hash.toString('base64')}\n`).join('')}\n${this.checkpoint(size)}`;
  }
}
