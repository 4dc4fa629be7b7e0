import { parseJson } from '#libs/common';
import { leafHash, verifyInclusion } from '#libs/merkle-tree';
import { ed25519CosignatureVerifier, ed25519Verifier, openCheckpoint, parseTlogProof, SignedNoteError, type VerifiedCosignature } from '#libs/signed-note';

export interface ProofPolicy {
  /** The gateway's note verifier key (GET /v1/audit/verifier-key). */
  key: string;
  /** The origin the judge expects; by default the one the proof names (then shown, for the judge to compare). */
  origin?: string;
  /** Witnesses' verifier keys; `minCosignatures` of them must have cosigned the checkpoint (default: all given). */
  witnesses?: readonly string[];
  minCosignatures?: number;
}

export type ProofReport =
  | {
      ok: true;
      origin: string;
      /** Leaves in the checkpoint's tree, and the log's leaf index (its seq − 1). */
      size: bigint;
      index: bigint;
      /** The log as accepted: its canonical JSON, exactly the bytes the leaf hashes. */
      entry: string;
      cosignatures: VerifiedCosignature[];
      extensions: string[];
    }
  | { ok: false; reason: string };

const refuse = (reason: string): ProofReport => ({ ok: false, reason });

/**
 * Checks a c2sp.org/tlog-proof@v1 file of the gateway with nothing else: the checkpoint's signature by `key`, the
 * witnesses' cosignatures, the inclusion of the entry carried in `extra`, and that the entry is the log at that index
 * of that account (its `seq` and `accountId` against the index and the origin).
 */
export function verifyProofFile(file: string | Uint8Array, policy: ProofPolicy): ProofReport {
  try {
    const proof = parseTlogProof(file);
    const origin = policy.origin ?? proof.origin;
    const witnesses = (policy.witnesses ?? []).map((w) => ed25519CosignatureVerifier(w));
    const opened = openCheckpoint(proof.checkpoint, { origin, logVerifiers: [ed25519Verifier(policy.key)], cosignerVerifiers: witnesses });
    const needed = policy.minCosignatures ?? witnesses.length;
    if (opened.cosignatures.length < needed) {
      const names = opened.cosignatures.map((c) => c.name).join(', ') || 'none';
      return refuse(`${opened.cosignatures.length} of the witnesses given cosigned the checkpoint (${names}); ${needed} are required`);
    }
    if (proof.extra === undefined) return refuse('the proof carries no entry (no extra line): there is nothing to check it against');
    const { size, rootHash } = opened.checkpoint;
    const inclusion = verifyInclusion(leafHash(proof.extra), proof.index, size, proof.hashes, rootHash);
    if (!inclusion.ok) return refuse(`the entry is not at index ${proof.index} of the signed tree of ${size}: ${inclusion.reason}`);
    const entry = Buffer.from(proof.extra).toString('utf8');
    const mismatch = entryMismatch(entry, proof.index, origin);
    if (mismatch) return refuse(mismatch);
    return { ok: true, origin, size, index: proof.index, entry, cosignatures: opened.cosignatures, extensions: opened.checkpoint.extensions };
  } catch (error) {
    if (error instanceof SignedNoteError) return refuse(error.message);
    throw error;
  }
}

/** The leaf is the log's canonical JSON: its own seq and account must be the index's and the origin's. */
function entryMismatch(entry: string, index: bigint, origin: string): string | undefined {
  let log: { seq?: unknown; accountId?: unknown };
  try {
    log = parseJson(entry) as typeof log;
  } catch {
    return 'the entry is not the JSON of a log';
  }
  if (typeof log !== 'object' || log === null) return 'the entry is not the JSON of a log';
  if (String(log.seq) !== (index + 1n).toString()) return `the entry is the log at seq ${String(log.seq)}, but the proof puts it at index ${index}`;
  if (typeof log.accountId !== 'string' || !origin.endsWith(`/${log.accountId}`)) {
    // String(), not JSON.stringify: a number beyond 2^53 is parsed as a bigint, which JSON.stringify throws on.
    const account = typeof log.accountId === 'string' ? JSON.stringify(log.accountId) : String(log.accountId);
    return `the entry is a log of account ${account}, not of the origin ${JSON.stringify(origin)}`;
  }
  return undefined;
}
