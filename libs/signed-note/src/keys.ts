import { createHash } from 'node:crypto';
import { ED25519_KEY_SIZE, ed25519Sign, ed25519Verify, newSeed, privateKeyFromSeed, publicKeyFromRaw, rawPublicKey } from './ed25519.js';
import { encodeBase64, isCanonicalBase64 } from './encoding.js';
import { fail, SignedNoteError } from './errors.js';

/** Signature type bytes of c2sp.org/signed-note this library implements. */
export const SIGNATURE_TYPE_ED25519 = 0x01;
export const SIGNATURE_TYPE_COSIGNATURE_V1 = 0x04;
export type SignatureType = typeof SIGNATURE_TYPE_ED25519 | typeof SIGNATURE_TYPE_COSIGNATURE_V1;

/** Checks one signature line's key; Open asks it only about lines whose name and key ID it claims. */
export interface NoteVerifier {
  readonly name: string;
  /** uint32 key ID. */
  readonly keyId: number;
  verify(message: Uint8Array, signature: Uint8Array): boolean;
}

export interface NoteSigner {
  readonly name: string;
  readonly keyId: number;
  /** The signature bytes that follow the key ID in a signature line. */
  sign(message: Uint8Array): Uint8Array;
}

/** A public key as a vkey carries it. */
export interface VerifierKey {
  name: string;
  keyId: number;
  type: SignatureType;
  publicKey: Buffer;
}

/** A private key as a signer key carries it: always type 0x01, the 32-byte Ed25519 seed. */
export interface SignerKey {
  name: string;
  keyId: number;
  seed: Buffer;
  publicKey: Buffer;
}

/** Non-empty, no Unicode white space (Go's unicode.IsSpace is the White_Space property), no plus. */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && name.isWellFormed() && !/[\p{White_Space}+]/u.test(name);
}

function checkName(name: string): void {
  if (!isValidKeyName(name)) fail('malformed-key', `invalid key name ${JSON.stringify(name)}: empty, or contains white space or "+"`);
}

/** SHA-256(key name ‖ 0x0A ‖ signature type ‖ public key)[:4], big-endian. */
export function computeKeyId(name: string, type: number, publicKey: Uint8Array): number {
  const digest = createHash('sha256').update(name, 'utf8').update('\n').update(Uint8Array.of(type)).update(publicKey).digest();
  return digest.readUInt32BE(0);
}

export function formatKeyId(keyId: number): string {
  return keyId.toString(16).padStart(8, '0');
}

/** `name+keyid`, as errors and logs name a key. */
export function keyLabel(name: string, keyId: number): string {
  return `${name}+${formatKeyId(keyId)}`;
}

const HEX_KEY_ID = /^[0-9a-f]{8}$/;

// Splits `<name>+<hex id>+<base64>` the way Go's strings.Cut does (the base64 may itself contain "+"), then checks
// every part; what is wrong is said, but nothing of the key material is echoed.
function splitKey(text: string, what: string): { name: string; keyId: number; material: Buffer } {
  const first = text.indexOf('+');
  const second = first < 0 ? -1 : text.indexOf('+', first + 1);
  if (second < 0) fail('malformed-key', `${what}: expected <name>+<hex key ID>+<base64 key>`);
  const name = text.slice(0, first);
  const hex = text.slice(first + 1, second);
  const b64 = text.slice(second + 1);
  checkName(name);
  if (!HEX_KEY_ID.test(hex)) fail('malformed-key', `${what}: key ID must be 8 lowercase hex digits`);
  if (!isCanonicalBase64(b64)) fail('bad-base64', `${what}: key material is not canonical standard base64`);
  const material = Buffer.from(b64, 'base64');
  if (material.length === 0) fail('malformed-key', `${what}: empty key material`);
  return { name, keyId: Number.parseInt(hex, 16), material };
}

/** Parses a vkey; Ed25519 (0x01) and Ed25519 cosignature/v1 (0x04) keys. */
export function parseVerifierKey(vkey: string): VerifierKey {
  const { name, keyId, material } = splitKey(vkey, 'verifier key');
  const type = material[0];
  if (type !== SIGNATURE_TYPE_ED25519 && type !== SIGNATURE_TYPE_COSIGNATURE_V1) {
    fail('unknown-algorithm', `verifier key ${keyLabel(name, keyId)}: unsupported signature type 0x${type.toString(16).padStart(2, '0')}`);
  }
  const publicKey = material.subarray(1);
  if (publicKey.length !== ED25519_KEY_SIZE) fail('malformed-key', `verifier key ${keyLabel(name, keyId)}: Ed25519 public key must be 32 bytes`);
  if (computeKeyId(name, type, publicKey) !== keyId) fail('key-id-mismatch', `verifier key ${keyLabel(name, keyId)}: key ID does not match the key`);
  try {
    publicKeyFromRaw(publicKey); // a key OpenSSL will not load is refused here, not at the first verification
  } catch {
    fail('malformed-key', `verifier key ${keyLabel(name, keyId)}: not a usable Ed25519 public key`);
  }
  return { name, keyId, type, publicKey };
}

export function formatVerifierKey(key: { name: string; type: SignatureType; publicKey: Uint8Array }): string {
  checkName(key.name);
  if (key.publicKey.length !== ED25519_KEY_SIZE) fail('malformed-key', 'Ed25519 public key must be 32 bytes');
  const keyId = computeKeyId(key.name, key.type, key.publicKey);
  return `${keyLabel(key.name, keyId)}+${encodeBase64(Buffer.concat([Uint8Array.of(key.type), key.publicKey]))}`;
}

const SIGNER_PREFIX = 'PRIVATE+KEY+';

/** Parses `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 ‖ seed)>`, checking the ID against the derived public key. */
export function parseSignerKey(skey: string): SignerKey {
  if (!skey.startsWith(SIGNER_PREFIX)) fail('malformed-key', 'signer key: expected PRIVATE+KEY+<name>+<hex key ID>+<base64 key>');
  const { name, keyId, material } = splitKey(skey.slice(SIGNER_PREFIX.length), 'signer key');
  if (material[0] !== SIGNATURE_TYPE_ED25519) fail('unknown-algorithm', `signer key ${keyLabel(name, keyId)}: unsupported signature type`);
  const seed = material.subarray(1);
  if (seed.length !== ED25519_KEY_SIZE) fail('malformed-key', `signer key ${keyLabel(name, keyId)}: Ed25519 seed must be 32 bytes`);
  const publicKey = rawPublicKey(privateKeyFromSeed(seed));
  if (computeKeyId(name, SIGNATURE_TYPE_ED25519, publicKey) !== keyId) {
    fail('key-id-mismatch', `signer key ${keyLabel(name, keyId)}: key ID does not match the key`);
  }
  return { name, keyId, seed, publicKey };
}

export function formatSignerKey(key: { name: string; seed: Uint8Array }): string {
  checkName(key.name);
  if (key.seed.length !== ED25519_KEY_SIZE) fail('malformed-key', 'Ed25519 seed must be 32 bytes');
  const publicKey = rawPublicKey(privateKeyFromSeed(key.seed));
  const keyId = computeKeyId(key.name, SIGNATURE_TYPE_ED25519, publicKey);
  return `${SIGNER_PREFIX}${keyLabel(key.name, keyId)}+${encodeBase64(Buffer.concat([Uint8Array.of(SIGNATURE_TYPE_ED25519), key.seed]))}`;
}

/** A fresh Ed25519 key pair as a signer key and its vkey (type 0x01). */
export function generateKey(name: string): { signerKey: string; verifierKey: string } {
  const seed = newSeed();
  const signerKey = formatSignerKey({ name, seed });
  return { signerKey, verifierKey: formatVerifierKey({ name, type: SIGNATURE_TYPE_ED25519, publicKey: rawPublicKey(privateKeyFromSeed(seed)) }) };
}

/** A plain Ed25519 (0x01) note signer from a signer key string or parsed key. */
export function ed25519Signer(key: string | SignerKey): NoteSigner {
  const parsed = typeof key === 'string' ? parseSignerKey(key) : key;
  const privateKey = privateKeyFromSeed(parsed.seed);
  return { name: parsed.name, keyId: parsed.keyId, sign: (message) => ed25519Sign(privateKey, message) };
}

/** A plain Ed25519 (0x01) note verifier from a vkey string or parsed key. */
export function ed25519Verifier(key: string | VerifierKey): NoteVerifier {
  const parsed = typeof key === 'string' ? parseVerifierKey(key) : key;
  if (parsed.type !== SIGNATURE_TYPE_ED25519) {
    throw new SignedNoteError('unknown-algorithm', `verifier key ${keyLabel(parsed.name, parsed.keyId)} is not a plain Ed25519 (0x01) key`);
  }
  const publicKey = publicKeyFromRaw(parsed.publicKey);
  return { name: parsed.name, keyId: parsed.keyId, verify: (message, signature) => ed25519Verify(publicKey, message, signature) };
}
