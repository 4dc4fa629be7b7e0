import { type Checkpoint, parseCheckpoint } from './checkpoint.js';
import { cosignatureTimestamp } from './cosignature.js';
import { fail } from './errors.js';
import { keyLabel, type NoteVerifier } from './keys.js';
import { type NoteSignature, openNote, type OpenOptions, parseNote } from './note.js';

export interface CheckpointPolicy extends OpenOptions {
  /** The origin line the caller expects; a checkpoint of any other log is refused before any signature is checked. */
  origin: string;
  /** The log's keys: at least one must have signed. */
  logVerifiers: readonly NoteVerifier[];
  /** Witness keys (cosignature verifiers): each of their lines must verify; how many are enough is the caller's policy. */
  cosignerVerifiers?: readonly NoteVerifier[];
}

export interface VerifiedCosignature {
  name: string;
  keyId: number;
  /** POSIX seconds, as the witness signed it. */
  timestamp: bigint;
  signature: NoteSignature;
}

export interface OpenedCheckpoint {
  checkpoint: Checkpoint;
  /** The checkpoint body exactly as signed. */
  text: string;
  logSignatures: NoteSignature[];
  cosignatures: VerifiedCosignature[];
  /** Lines of keys neither list knows: ignored, reported. */
  unverified: NoteSignature[];
}

/** Opens a signed checkpoint in one step: syntax, origin, the log's signature, then every known witness's cosignature. */
export function openCheckpoint(signedNote: string | Uint8Array, policy: CheckpointPolicy): OpenedCheckpoint {
  const { text } = parseNote(signedNote, policy);
  const checkpoint = parseCheckpoint(text);
  if (checkpoint.origin !== policy.origin) {
    fail('wrong-origin', `checkpoint is for origin ${JSON.stringify(checkpoint.origin)}, expected ${JSON.stringify(policy.origin)}`);
  }
  const logLabels = new Set(policy.logVerifiers.map((v) => keyLabel(v.name, v.keyId)));
  const opened = openNote(signedNote, [...policy.logVerifiers, ...(policy.cosignerVerifiers ?? [])], policy);
  const logSignatures = opened.verified.filter((s) => logLabels.has(keyLabel(s.name, s.keyId)));
  if (logSignatures.length === 0) fail('no-verified-signature', `checkpoint for ${policy.origin} is not signed by any known log key`);
  const cosignatures = opened.verified
    .filter((s) => !logLabels.has(keyLabel(s.name, s.keyId)))
    .map((s) => ({ name: s.name, keyId: s.keyId, timestamp: cosignatureTimestamp(s), signature: s }));
  return { checkpoint, text, logSignatures, cosignatures, unverified: opened.unverified };
}
