import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';

// node:crypto takes raw Ed25519 keys only wrapped in DER; these are the fixed prefixes of the PKCS#8 and SPKI forms
// (RFC 8410), followed by the 32-byte seed or public key.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export const ED25519_KEY_SIZE = 32;
export const ED25519_SIGNATURE_SIZE = 64;

export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export function publicKeyFromRaw(publicKey: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
}

/** The raw 32-byte public key of a private key: the tail of its SPKI encoding. */
export function rawPublicKey(privateKey: KeyObject): Buffer {
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
}

export function newSeed(): Buffer {
  const der = generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' });
  return der.subarray(PKCS8_PREFIX.length);
}

export function ed25519Sign(privateKey: KeyObject, message: Uint8Array): Buffer {
  return sign(null, message, privateKey);
}

/** False, never a throw, for a signature of the wrong length. */
export function ed25519Verify(publicKey: KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
  return signature.length === ED25519_SIGNATURE_SIZE && verify(null, message, publicKey, signature);
}
