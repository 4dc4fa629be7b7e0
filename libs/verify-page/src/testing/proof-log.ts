import { append, type HashReader, inclusionProof, leafHash, storedAt, treeRoot } from '#libs/merkle-tree';
import { ed25519Cosigner, ed25519Signer, formatCheckpoint, formatTlogProof, generateKey, type NoteSigner, signNote } from '#libs/signed-note';

// Proof files as the gateway makes them, built with the project's own libs (signed-note, merkle-tree) for the tests
// that hold the page's script to verifyProofFile.

/** The canonical JSON of a log as the gateway accepts it; `input` is JSON text, kept as written. */
export function logEntry(seq: number | string, options: { accountId?: string; input?: string } = {}): string {
  const account = JSON.stringify(options.accountId ?? 'default');
  const input = options.input ?? '{"big":123456789012345678901234567890,"price":64250.50}';
  const id = `0195f0c2-0000-7000-8000-${String(seq).padStart(12, '0')}`;
  return (
    `{"accountId":${account},"agentKeyId":"0195f0c1-aaaa-7000-8000-000000000001","explanation":"Momentum and funding favour a long (${seq}).",` +
    `"id":"${id}","input":${input},"model":"momentum-v1","orderId":"737185556881998184","output":{"action":"BUY","size":"0.01"},` +
    `"receivedAt":"2026-11-21T19:00:00.000Z","seq":${seq},"stage":"decision"}`
  );
}

/** A key pair in both forms a judge may be given: the signer for making notes, the vkey for checking them. */
export function noteKey(name: string): { signer: NoteSigner; vkey: string; signerKey: string } {
  const { signerKey, verifierKey } = generateKey(name);
  return { signer: ed25519Signer(signerKey), vkey: verifierKey, signerKey };
}

/** A witness: its cosigner (fixed time), its cosignature vkey (0x04) and its note vkey (0x01). */
export function witnessKey(name: string, time = 1_767_225_600n): { cosigner: NoteSigner; vkey: string; noteVkey: string } {
  const { signerKey, verifierKey } = generateKey(name);
  const cosigner = ed25519Cosigner(signerKey, () => time);
  return { cosigner, vkey: cosigner.verifierKey, noteVkey: verifierKey };
}

export interface ProofOptions {
  /** The tree the checkpoint signs; all entries by default. */
  size?: number;
  /** What the extra line carries (the entry at `index` by default); null leaves the line out. */
  extra?: Buffer | null;
  signers: NoteSigner[];
  extensions?: string[];
}

/** An account's log in memory: entries, the rows of stored subtree hashes ingest would write, and their reader. */
export class ProofLog {
  readonly entries: Buffer[] = [];
  private readonly rows: Buffer[][] = [];
  private frontier: Buffer[] = [];

  constructor(readonly origin: string) {}

  add(...entries: Array<string | Buffer>): this {
    for (const entry of entries) {
      const bytes = typeof entry === 'string' ? Buffer.from(entry, 'utf8') : entry;
      const { stored, frontier } = append(this.frontier, this.rows.length, leafHash(bytes));
      this.entries.push(bytes);
      this.rows.push(stored);
      this.frontier = frontier;
    }
    return this;
  }

  readonly read: HashReader = async (refs) =>
    refs.map((ref) => {
      const { leafIndex, level } = storedAt(ref);
      return this.rows[Number(leafIndex)][level];
    });

  async checkpoint(size: number, signers: NoteSigner[], extensions: string[] = []): Promise<string> {
    const text = formatCheckpoint({ origin: this.origin, size: BigInt(size), rootHash: await treeRoot(size, this.read), extensions });
    return signNote(text, ...signers);
  }

  async proof(index: number, options: ProofOptions): Promise<string> {
    const size = options.size ?? this.entries.length;
    const extra = options.extra === undefined ? this.entries[index] : options.extra;
    return formatTlogProof({
      ...(extra === null ? {} : { extra }),
      index: BigInt(index),
      hashes: await inclusionProof(index, size, this.read),
      checkpoint: await this.checkpoint(size, options.signers, options.extensions),
    });
  }
}
