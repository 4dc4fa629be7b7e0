import { parseCheckpoint } from './checkpoint.js';
import { ED25519_KEY_SIZE, ed25519Sign, ed25519Verify, privateKeyFromSeed, publicKeyFromRaw } from './ed25519.js';
import { INT64_MAX } from './encoding.js';
import { fail, SignedNoteError } from './errors.js';
import {
  computeKeyId,
  keyLabel,
  type NoteSigner,
  type NoteVerifier,
  parseSignerKey,
  parseVerifierKey,
  SIGNATURE_TYPE_COSIGNATURE_V1,
  SIGNATURE_TYPE_ED25519,
  type SignerKey,
  type VerifierKey,
} from './keys.js';
import type { NoteSignature } from './note.js';

// c2sp.org/tlog-cosignature, Ed25519 (signature type 0x04): the note signature is an 8-byte big-endian timestamp
// followed by an Ed25519 signature over "cosignature/v1\ntime <t>\n" and the whole checkpoint body, extension lines
// included.
const HEADER = 'cosignature/v1\n';
export const COSIGNATURE_SIZE = 8 + 64;

/** The exact bytes a cosigner signs; the body must be a checkpoint, the timestamp fit in 63 bits. */
export function cosignatureMessage(checkpointText: string, timestamp: bigint): Buffer {
  if (timestamp < 0n || timestamp > INT64_MAX) fail('malformed-cosignature', 'malformed cosignature: timestamp must be between 0 and 2^63-1');
  parseCheckpoint(checkpointText);
  return Buffer.from(`${HEADER}time ${timestamp}\n${checkpointText}`, 'utf8');
}

/** The timestamp a cosignature claims, unverified: read it only after the signature verified. */
export function cosignatureTimestamp(signature: Uint8Array | NoteSignature): bigint {
  const bytes = signature instanceof Uint8Array ? signature : signature.signature;
  if (bytes.length !== COSIGNATURE_SIZE) fail('malformed-cosignature', `malformed cosignature: ${bytes.length} bytes, not ${COSIGNATURE_SIZE}`);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readBigUInt64BE(0);
}

export interface Cosigner extends NoteSigner {
  readonly verifierKey: string;
}

/**
 * A cosigner from an Ed25519 key: the same seed a signer key holds, its key ID computed with type 0x04, so one key
 * file serves both. `now` gives POSIX seconds.
 */
export function ed25519Cosigner(key: string | SignerKey, now: () => bigint = () => BigInt(Math.floor(Date.now() / 1000))): Cosigner {
  const parsed = typeof key === 'string' ? parseSignerKey(key) : key;
  const privateKey = privateKeyFromSeed(parsed.seed);
  const keyId = computeKeyId(parsed.name, SIGNATURE_TYPE_COSIGNATURE_V1, parsed.publicKey);
  return {
    name: parsed.name,
    keyId,
    verifierKey: `${keyLabel(parsed.name, keyId)}+${Buffer.concat([Uint8Array.of(SIGNATURE_TYPE_COSIGNATURE_V1), parsed.publicKey]).toString('base64')}`,
    sign(message) {
      const timestamp = now();
      const signed = cosignatureMessage(Buffer.from(message).toString('utf8'), timestamp);
      const out = Buffer.alloc(8);
      out.writeBigUInt64BE(timestamp);
      return Buffer.concat([out, ed25519Sign(privateKey, signed)]);
    },
  };
}

/**
 * A cosignature verifier. A 0x04 vkey is used as is; a 0x01 vkey is the same public key, its key ID recomputed for
 * type 0x04, since witnesses often publish their note key.
 */
export function ed25519CosignatureVerifier(key: string | VerifierKey): NoteVerifier {
  const parsed = typeof key === 'string' ? parseVerifierKey(key) : key;
  if (parsed.publicKey.length !== ED25519_KEY_SIZE) fail('malformed-key', 'Ed25519 public key must be 32 bytes');
  const keyId = parsed.type === SIGNATURE_TYPE_ED25519 ? computeKeyId(parsed.name, SIGNATURE_TYPE_COSIGNATURE_V1, parsed.publicKey) : parsed.keyId;
  const publicKey = publicKeyFromRaw(parsed.publicKey);
  return {
    name: parsed.name,
    keyId,
    verify(message, signature) {
      if (signature.length !== COSIGNATURE_SIZE) return false;
      const timestamp = cosignatureTimestamp(signature);
      if (timestamp > INT64_MAX) return false;
      let signed: Buffer;
      try {
        signed = cosignatureMessage(Buffer.from(message).toString('utf8'), timestamp);
      } catch (error) {
        if (error instanceof SignedNoteError) return false; // not a checkpoint: nothing a cosignature can cover
        throw error;
      }
      return ed25519Verify(publicKey, signed, signature.subarray(8));
    },
  };
}

/** Verifies one cosignature line over a checkpoint body and returns the time it claims, in POSIX seconds. */
export function verifyCosignature(checkpointText: string, signature: NoteSignature, verifier: NoteVerifier): bigint {
  const label = keyLabel(signature.name, signature.keyId);
  if (signature.name !== verifier.name || signature.keyId !== verifier.keyId) fail('unknown-key', `unknown key ${label}: not the given cosigner`);
  if (!verifier.verify(Buffer.from(checkpointText, 'utf8'), signature.signature)) fail('invalid-signature', `invalid signature for key ${label}`);
  return cosignatureTimestamp(signature);
}
