import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { formatVerifierKey, SIGNATURE_TYPE_ED25519 } from '#libs/signed-note';

/**
 * What a checkpoint states: the account's log chain had this head, and its receipt chain this one, at this time.
 * Checkpoints signed before the receipt chain existed have no receipt fields.
 */
export interface CheckpointStatement {
  accountId: string;
  seq: string;
  hash: string;
  receiptSeq?: string;
  receiptHash?: string;
  /** ISO-8601. */
  at: string;
}

/** The exact bytes signed: the canonical JSON of the statement, the seqs as JSON integers. */
export function checkpointMessage(statement: CheckpointStatement): Buffer {
  const { accountId, seq, hash, receiptSeq, receiptHash, at } = statement;
  return Buffer.from(
    canonicalJson({ accountId, seq: BigInt(seq), hash, receiptSeq: receiptSeq === undefined ? undefined : BigInt(receiptSeq), receiptHash, at }),
  );
}

/** Reads an Ed25519 private key: PEM (PKCS#8), or base64 of its DER. */
export function readSigningKey(text: string): KeyObject {
  const pem = text.includes('BEGIN') ? text.replace(/\\n/g, '\n') : undefined;
  const key = pem ? createPrivateKey(pem) : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the audit signing key must be an Ed25519 key');
  return key;
}

/** Reads an Ed25519 public key: PEM (SPKI), or base64 of its DER. */
export function readPublicKey(text: string): KeyObject {
  const key = text.includes('BEGIN') ? createPublicKey(text) : createPublicKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the public key must be an Ed25519 key');
  return key;
}

export function newSigningKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

export function publicKeyPem(privateKey: KeyObject): string {
  return createPublicKey(privateKey).export({ format: 'pem', type: 'spki' }).toString();
}

/** SHA-256 of the public key's SPKI DER, hex: names the key that signed. */
export function keyIdOf(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(publicKey.export({ format: 'der', type: 'spki' }))
    .digest('hex');
}

export function signCheckpoint(privateKey: KeyObject, statement: CheckpointStatement): string {
  return sign(null, checkpointMessage(statement), privateKey).toString('base64');
}

export function verifyCheckpoint(publicKey: KeyObject, statement: CheckpointStatement, signature: string): boolean {
  return verify(null, checkpointMessage(statement), publicKey, Buffer.from(signature, 'base64'));
}

/**
 * Signs the canonical JSON of a record that has a `type` field (an export's end line), which no checkpoint statement
 * has: a signature over one can never pass for the other.
 */
export function signRecord(privateKey: KeyObject, record: { type: string }): string {
  return sign(null, Buffer.from(canonicalJson(record)), privateKey).toString('base64');
}

export function verifyRecord(publicKey: KeyObject, record: { type: string }, signature: string): boolean {
  return verify(null, Buffer.from(canonicalJson(record)), publicKey, Buffer.from(signature, 'base64'));
}

/** The file in DATA_DIR that keeps the sandbox's checkpoint key. */
export const SANDBOX_AUDIT_KEY_FILE = 'sandbox-audit-signing-key.pem';

/** The key's c2sp.org/signed-note verifier key named `name`: `<name>+<hex key id>+<base64(0x01 ‖ public key)>`. */
export function noteVerifierKey(key: KeyObject, name: string): string {
  const publicKey = Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url');
  return formatVerifierKey({ name, type: SIGNATURE_TYPE_ED25519, publicKey });
}
