import { EMPTY_ROOT, verifyConsistency } from '#libs/merkle-tree';
import {
  type Checkpoint,
  type Cosigner,
  ed25519Cosigner,
  formatSignatureLine,
  openCheckpoint,
  parseCheckpoint,
  parseNote,
  SignedNoteError,
} from '#libs/signed-note';
import { type AddCheckpointBody, MAX_BODY_BYTES, parseAddCheckpointBody } from './add-checkpoint-body.js';
import { KeyedSerializer } from './keyed-serializer.js';
import { type KnownLog, KnownLogs } from './known-logs.js';
import { MAX_TREE_SIZE } from './numbers.js';
import type { TreeHead, WitnessStateStore } from './state-store.js';
import { conflict, refuse, TEXT, type WitnessAnswer, WitnessRefusal } from './witness-refusal.js';

export interface WitnessOptions {
  /** The witness's signer key, `PRIVATE+KEY+<name>+<hex key ID>+<base64>`; it cosigns as cosignature/v1 (0x04). */
  key: string;
  /** The logs it cosigns for; see KnownLog for the `/*` origin patterns. */
  logs: readonly KnownLog[];
  store: WitnessStateStore;
  /** POSIX seconds for the cosignatures' timestamps; the clock by default. */
  now?: () => bigint;
}

/** An answer, with what the request was about as far as it could be read: for the log line. */
export interface AddCheckpointAnswer extends WitnessAnswer {
  origin?: string;
  oldSize?: bigint;
  size?: bigint;
  /** Why it was refused; a 409's body is only a size, so this is where the reason goes. */
  reason?: string;
}

/** What the witness holds for an origin it never cosigned: the empty tree, whose root RFC 6962 fixes. */
const NOTHING_YET: TreeHead = { size: 0n, root: EMPTY_ROOT };

/**
 * A c2sp.org/tlog-witness witness: checks each submitted checkpoint against the log's key and the tree it last
 * cosigned for the origin, and cosigns only a tree that extends it. It never cosigns two trees of one size, nor one
 * that is not consistent with the last it cosigned.
 */
export class Witness {
  readonly cosigner: Cosigner;
  private readonly logs: KnownLogs;
  private readonly store: WitnessStateStore;
  private readonly serializer = new KeyedSerializer();

  constructor(options: WitnessOptions) {
    this.cosigner = ed25519Cosigner(options.key, options.now);
    this.logs = new KnownLogs(options.logs);
    this.store = options.store;
  }

  get name(): string {
    return this.cosigner.name;
  }

  /** The vkey (type 0x04) a log operator configures to check this witness's cosignatures. */
  get verifierKey(): string {
    return this.cosigner.verifierKey;
  }

  /**
   * POST add-checkpoint: the answer the spec prescribes for the body. Rejects (a 500 for the caller) only when the
   * state store fails, and then nothing was cosigned.
   */
  async addCheckpoint(body: Buffer | string): Promise<AddCheckpointAnswer> {
    const about: Omit<AddCheckpointAnswer, keyof WitnessAnswer> = {};
    try {
      const request = parseAddCheckpointBody(body);
      about.oldSize = request.oldSize;
      const { checkpoint, text: checkpointText } = this.readCheckpoint(request.note);
      about.origin = checkpoint.origin;
      about.size = checkpoint.size;
      this.checkSignature(request.note, checkpoint.origin);
      if (request.oldSize > checkpoint.size) refuse(400, `old size ${request.oldSize} is greater than the checkpoint's size ${checkpoint.size}`);
      const lines = await this.serializer.run(checkpoint.origin, () => this.cosignIfConsistent(request, checkpoint, checkpointText));
      return { status: 200, contentType: TEXT, body: lines, ...about };
    } catch (error) {
      if (error instanceof WitnessRefusal) return { ...error.answer, ...about, reason: error.message };
      throw error;
    }
  }

  /** The checkpoint and its text exactly as signed: the text is what the cosignature covers. */
  private readCheckpoint(note: string): { checkpoint: Checkpoint; text: string } {
    let checkpoint: Checkpoint;
    let text: string;
    try {
      text = parseNote(note, { maxBytes: MAX_BODY_BYTES }).text;
      checkpoint = parseCheckpoint(text);
    } catch (error) {
      if (error instanceof SignedNoteError) refuse(400, error.message);
      throw error;
    }
    if (checkpoint.size > MAX_TREE_SIZE) refuse(400, `the checkpoint's tree size ${checkpoint.size} is beyond 2^63-1`);
    return { checkpoint, text };
  }

  /** 404 for an origin no entry covers, 403 unless a trusted key's signature verifies; other keys' lines are ignored. */
  private checkSignature(note: string, origin: string): void {
    const logVerifiers = this.logs.verifiersFor(origin);
    if (logVerifiers.length === 0) refuse(404, `unknown origin ${JSON.stringify(origin)}: this witness does not cosign for that log`);
    try {
      openCheckpoint(note, { origin, logVerifiers, duplicates: 'ignore', maxBytes: MAX_BODY_BYTES });
    } catch (error) {
      if (!(error instanceof SignedNoteError)) throw error;
      if (error.code === 'no-verified-signature' || error.code === 'invalid-signature') {
        refuse(403, `no signature by a key trusted for ${JSON.stringify(origin)} verifies: ${error.message}`);
      }
      refuse(400, error.message);
    }
  }

  /** The check against the stored head and the write of the new one: one origin's requests run here one at a time. */
  private async cosignIfConsistent({ oldSize, proof }: AddCheckpointBody, checkpoint: Checkpoint, text: string): Promise<string> {
    const { origin, size, rootHash } = checkpoint;
    const stored = await this.store.get(origin);
    const last = stored ?? NOTHING_YET;
    if (oldSize !== last.size) conflict(last.size, `old size ${oldSize} is not the size ${last.size} this witness last cosigned for the origin`);
    if (oldSize === size) {
      if (!last.root.equals(rootHash)) conflict(last.size, `this witness cosigned a different tree of size ${size} for the origin`);
      if (proof.length > 0) refuse(422, 'the consistency proof must be empty when the old size is the checkpoint size');
    } else if (oldSize === 0n) {
      if (proof.length > 0) refuse(422, 'the consistency proof must be empty when the old size is 0');
    } else {
      const verdict = verifyConsistency(oldSize, size, proof, last.root, rootHash);
      if (!verdict.ok) refuse(422, `the consistency proof from size ${oldSize} to ${size} does not verify: ${verdict.reason}`);
    }
    const line = formatSignatureLine(this.cosigner.name, this.cosigner.keyId, this.cosigner.sign(Buffer.from(text, 'utf8')));
    // Durable before the answer leaves: a restarted witness must know the size it cosigned.
    if (stored === undefined || stored.size !== size) await this.store.set(origin, { size, root: Buffer.from(rootHash) });
    return line;
  }
}
