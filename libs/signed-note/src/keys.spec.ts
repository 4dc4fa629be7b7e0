import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { SignedNoteError } from './errors.js';
import {
  computeKeyId,
  ed25519Signer,
  ed25519Verifier,
  formatSignerKey,
  formatVerifierKey,
  generateKey,
  parseSignerKey,
  parseVerifierKey,
  SIGNATURE_TYPE_COSIGNATURE_V1,
  SIGNATURE_TYPE_ED25519,
} from './keys.js';

// The expected values below are computed here with node:crypto from the c2sp.org/signed-note rules, never through
// the library: key ID = SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4], vkey = <name>+<hex ID>+<base64(type ‖ key)>,
// signer key = PRIVATE+KEY+<name>+<hex ID>+<base64(0x01 ‖ seed)>.

/** RFC 8410 PKCS#8 wrapping of a raw Ed25519 seed, the only way node:crypto loads one. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const privateKeyOf = (seed: Buffer) => createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
const publicKeyOf = (seed: Buffer) => Buffer.from(createPublicKey(privateKeyOf(seed)).export({ format: 'jwk' }).x as string, 'base64url');
const keyIdOf = (name: string, type: number, publicKey: Buffer) =>
  createHash('sha256')
    .update(Buffer.concat([Buffer.from(name, 'utf8'), Buffer.from([0x0a, type]), publicKey]))
    .digest()
    .subarray(0, 4);
const vkeyOf = (name: string, type: number, publicKey: Buffer) =>
  `${name}+${keyIdOf(name, type, publicKey).toString('hex')}+${Buffer.concat([Buffer.from([type]), publicKey]).toString('base64')}`;
const skeyOf = (name: string, seed: Buffer) =>
  `PRIVATE+KEY+${name}+${keyIdOf(name, 0x01, publicKeyOf(seed)).toString('hex')}+${Buffer.concat([Buffer.from([0x01]), seed]).toString('base64')}`;

const SEED = Buffer.alloc(32, 0x01);
const NAME = 'log.example/alpha';
const PUBLIC_KEY = publicKeyOf(SEED);
const VKEY = vkeyOf(NAME, 0x01, PUBLIC_KEY);
const SKEY = skeyOf(NAME, SEED);

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SignedNoteError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('keys (c2sp.org/signed-note vkeys and signer keys)', () => {
  it('derives the key ID and lays out vkeys and signer keys exactly as the spec says', () => {
    const keyId = keyIdOf(NAME, 0x01, PUBLIC_KEY).readUInt32BE(0);
    expect(computeKeyId(NAME, SIGNATURE_TYPE_ED25519, PUBLIC_KEY)).toBe(keyId);
    expect(computeKeyId(NAME, SIGNATURE_TYPE_COSIGNATURE_V1, PUBLIC_KEY)).toBe(keyIdOf(NAME, 0x04, PUBLIC_KEY).readUInt32BE(0));
    expect(formatVerifierKey({ name: NAME, type: SIGNATURE_TYPE_ED25519, publicKey: PUBLIC_KEY })).toBe(VKEY);
    expect(formatSignerKey({ name: NAME, seed: SEED })).toBe(SKEY);
    expect(parseVerifierKey(VKEY)).toEqual({ name: NAME, keyId, type: SIGNATURE_TYPE_ED25519, publicKey: PUBLIC_KEY });
    expect(parseSignerKey(SKEY)).toEqual({ name: NAME, keyId, seed: SEED, publicKey: PUBLIC_KEY });
  });

  it('round-trips keys byte for byte for many seeds and names, the vkey derived from the seed alone', () => {
    const names = ['a', 'log.example/alpha', 'witness.example:w2', 'журнал.example/ключ', 'x_y-z~1'];
    const seen: string[] = [];
    for (let fill = 0; fill < 16; fill++) {
      const seed = Buffer.alloc(32, fill);
      seed[31] = 0xff - fill;
      const name = names[fill % names.length];
      const vkey = vkeyOf(name, 0x01, publicKeyOf(seed));
      const skey = skeyOf(name, seed);
      const parsed = parseSignerKey(skey);
      expect(formatSignerKey(parsed)).toBe(skey);
      expect(formatVerifierKey({ name, type: SIGNATURE_TYPE_ED25519, publicKey: parsed.publicKey })).toBe(vkey);
      expect(formatVerifierKey(parseVerifierKey(vkey))).toBe(vkey);
      const cosignatureKey = vkeyOf(name, 0x04, publicKeyOf(seed));
      expect(parseVerifierKey(cosignatureKey).type).toBe(SIGNATURE_TYPE_COSIGNATURE_V1);
      expect(formatVerifierKey(parseVerifierKey(cosignatureKey))).toBe(cosignatureKey);
      seen.push(vkey, skey);
    }
    // The base64 may itself hold "+": only the first two separate the fields.
    expect(seen.filter((k) => !k.startsWith('PRIVATE') && k.split('+').length > 3).length).toBeGreaterThan(0);
  });

  it('refuses every truncation, deletion and substitution of a vkey and a signer key, with a SignedNoteError', () => {
    for (const [key, parse] of [
      [VKEY, parseVerifierKey],
      [SKEY, parseSignerKey],
    ] as const) {
      const variants = new Set<string>();
      for (let i = 0; i < key.length; i++) {
        variants.add(key.slice(0, i));
        variants.add(key.slice(i + 1));
        variants.add(key.slice(0, i) + key.slice(i + 1));
        for (const c of ['A', 'a', '0', '+', '/', '=', ' ', '\n', 'é']) variants.add(key.slice(0, i) + c + key.slice(i + 1));
      }
      variants.delete(key);
      for (const variant of variants) expect([variant, codeOf(() => parse(variant))]).not.toEqual([variant, 'no error']);
      expect(variants.size).toBeGreaterThan(10 * key.length);
    }
  });

  it('refuses malformed vkeys, saying why', () => {
    const material = (bytes: Buffer) => bytes.toString('base64');
    // 34 bytes end in "X==", leaving 4 padding bits: zero they are canonical, set they are not.
    const tooLong = Buffer.concat([Buffer.from([0x01]), PUBLIC_KEY, Buffer.from([0x00])]);
    const canonicalLong = material(tooLong);
    expect(canonicalLong).toMatch(/A==$/);
    const hex = keyIdOf(NAME, 0x01, PUBLIC_KEY).toString('hex');
    expect(codeOf(() => parseVerifierKey(`${NAME}+${hex}+${canonicalLong}`))).toBe('malformed-key');
    expect(codeOf(() => parseVerifierKey(`${NAME}+${hex}+${canonicalLong.replace(/A==$/, 'B==')}`))).toBe('bad-base64');
    expect(codeOf(() => parseVerifierKey(`${NAME}+${hex}+${material(tooLong.subarray(0, 32))}`))).toBe('malformed-key');
    expect(codeOf(() => parseVerifierKey(vkeyOf(NAME, 0x02, PUBLIC_KEY)))).toBe('unknown-algorithm');
    expect(codeOf(() => parseVerifierKey(vkeyOf(NAME, 0xff, PUBLIC_KEY)))).toBe('unknown-algorithm');
    expect(codeOf(() => parseVerifierKey(`${NAME}+${hex}+`))).toBe('malformed-key');
    expect(codeOf(() => parseVerifierKey(`${NAME}+${hex}`))).toBe('malformed-key');
    expect(codeOf(() => parseVerifierKey(''))).toBe('malformed-key');
    const b64 = VKEY.split('+').slice(2).join('+');
    expect(() => parseVerifierKey(`${NAME}+00000000+${b64}`)).toThrow(/key ID does not match/);
    expect(() => parseVerifierKey(`${NAME}+${hex.toUpperCase()}+${b64}`)).toThrow(/lowercase hex/);
    expect(() => parseVerifierKey(`${NAME}+${hex.slice(1)}+${b64}`)).toThrow(/lowercase hex/);
    expect(() => parseVerifierKey(`log example+${keyIdOf('log example', 1, PUBLIC_KEY).toString('hex')}+${b64}`)).toThrow(/invalid key name/);
    expect(() => parseVerifierKey(`${NAME}+${hex}+${b64.slice(0, 8)}_${b64.slice(9)}`)).toThrow(/base64/);
    expect(() => parseVerifierKey(`${NAME}+${hex}+${b64} `)).toThrow(/base64/);
  });

  it('refuses malformed signer keys, saying why', () => {
    const hex = keyIdOf(NAME, 0x01, PUBLIC_KEY).toString('hex');
    const b64 = (bytes: number[] | Buffer) => Buffer.from(bytes).toString('base64');
    expect(codeOf(() => parseSignerKey(SKEY.slice('PRIVATE+KEY+'.length)))).toBe('malformed-key');
    expect(codeOf(() => parseSignerKey(SKEY.replace('PRIVATE+KEY+', 'private+key+')))).toBe('malformed-key');
    expect(codeOf(() => parseSignerKey(`PRIVATE+KEY+${NAME}+${hex}+${b64(Buffer.concat([Buffer.from([0x04]), SEED]))}`))).toBe('unknown-algorithm');
    expect(codeOf(() => parseSignerKey(`PRIVATE+KEY+${NAME}+${hex}+${b64(Buffer.concat([Buffer.from([0x01]), SEED.subarray(1)]))}`))).toBe('malformed-key');
    expect(codeOf(() => parseSignerKey(`PRIVATE+KEY+${NAME}+00000000+${b64(Buffer.concat([Buffer.from([0x01]), SEED]))}`))).toBe('key-id-mismatch');
    // A signer key of another seed under this name and ID: the ID is checked against the key the seed derives.
    expect(codeOf(() => parseSignerKey(`PRIVATE+KEY+${NAME}+${hex}+${b64(Buffer.concat([Buffer.from([0x01]), Buffer.alloc(32, 2)]))}`))).toBe(
      'key-id-mismatch',
    );
    expect(codeOf(() => formatSignerKey({ name: NAME, seed: SEED.subarray(1) }))).toBe('malformed-key');
    expect(codeOf(() => formatSignerKey({ name: 'a+b', seed: SEED }))).toBe('malformed-key');
    expect(codeOf(() => formatVerifierKey({ name: NAME, type: SIGNATURE_TYPE_ED25519, publicKey: PUBLIC_KEY.subarray(1) }))).toBe('malformed-key');
    expect(codeOf(() => ed25519Verifier(vkeyOf(NAME, 0x04, PUBLIC_KEY)))).toBe('unknown-algorithm');
  });

  it('generates a pair whose vkey is the one its seed derives, that signs and verifies like node:crypto, and refuses bad names', () => {
    const { signerKey, verifierKey } = generateKey('example.com/gateway');
    // PRIVATE+KEY+<name>+<hex ID>+<base64>: the base64 may itself hold "+", so it is everything after the fourth.
    const seed = Buffer.from(signerKey.split('+').slice(4).join('+'), 'base64').subarray(1);
    expect(seed).toHaveLength(32);
    expect(verifierKey).toBe(vkeyOf('example.com/gateway', 0x01, publicKeyOf(seed)));
    expect(signerKey).toBe(skeyOf('example.com/gateway', seed));
    expect(generateKey('example.com/gateway').signerKey).not.toBe(signerKey);

    const signer = ed25519Signer(signerKey);
    const verifier = ed25519Verifier(verifierKey);
    expect([signer.name, signer.keyId]).toEqual([verifier.name, verifier.keyId]);
    const message = Buffer.from('hi\n');
    const sig = Buffer.from(signer.sign(message));
    expect(sig.equals(sign(null, message, privateKeyOf(seed)))).toBe(true);
    expect(verify(null, message, createPublicKey(privateKeyOf(seed)), sig)).toBe(true);
    expect(verifier.verify(message, sig)).toBe(true);
    sig[0]++;
    expect(verifier.verify(message, sig)).toBe(false);
    expect(verifier.verify(message, sig.subarray(1))).toBe(false);
    for (const name of ['', 'a b', 'a+b', 'a\tb', 'a\u00a0b', 'a\u2028b', 'a\u3000b', '\ud800']) expect(() => generateKey(name)).toThrow(SignedNoteError);
  });
});
