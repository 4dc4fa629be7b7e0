import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** Reads SECRETS_KEY: 32 bytes written as 64 hex digits or 44 base64 characters (validated by the config). */
export function secretsKeyFrom(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes');
  return key;
}

/**
 * Encrypts with AES-256-GCM and a fresh 96-bit IV: `v1.<iv>.<tag>.<ciphertext>` (base64url). `context` (the account
 * id) is bound as associated data, so a sealed value copied onto another account's row does not open there.
 */
export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** Decrypts what `seal` made; throws when the key, the context or a single byte differs. */
export function open(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || data === undefined) throw new Error('not a sealed secret of a known version');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
