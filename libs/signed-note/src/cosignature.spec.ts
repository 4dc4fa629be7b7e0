import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { cosignatureMessage, cosignatureTimestamp, ed25519CosignatureVerifier, ed25519Cosigner, verifyCosignature } from './cosignature.js';
import { SignedNoteError } from './errors.js';
import { computeKeyId, ed25519Signer, ed25519Verifier, parseSignerKey, SIGNATURE_TYPE_COSIGNATURE_V1 } from './keys.js';
import { type NoteSignature, openNote, parseNote, signNote } from './note.js';
import { openCheckpoint } from './signed-checkpoint.js';

// Keys come from fixed seeds written here. What a cosignature must be is recomputed with node:crypto from
// c2sp.org/tlog-cosignature, not through the library: type 0x04 key ID = SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key)[:4];
// the line carries key ID ‖ 8-byte big-endian time ‖ Ed25519("cosignature/v1\ntime <t>\n" ‖ checkpoint body).

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

interface TestKey {
  name: string;
  seed: Buffer;
  publicKey: Buffer;
  skey: string;
  /** vkey of type 0x01, the key as a note signer publishes it. */
  vkey: string;
  /** vkey of type 0x04, the key as a witness publishes it. */
  cosignatureVkey: string;
}

const privateKeyOf = (seed: Buffer) => createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
const keyIdOf = (name: string, type: number, publicKey: Buffer) =>
  createHash('sha256')
    .update(Buffer.concat([Buffer.from(name, 'utf8'), Buffer.from([0x0a, type]), publicKey]))
    .digest()
    .subarray(0, 4);

function testKey(name: string, fill: number): TestKey {
  const seed = Buffer.alloc(32, fill);
  const publicKey = Buffer.from(createPublicKey(privateKeyOf(seed)).export({ format: 'jwk' }).x as string, 'base64url');
  const vkeyOf = (type: number) =>
    `${name}+${keyIdOf(name, type, publicKey).toString('hex')}+${Buffer.concat([Buffer.from([type]), publicKey]).toString('base64')}`;
  return {
    name,
    seed,
    publicKey,
    skey: `PRIVATE+KEY+${name}+${keyIdOf(name, 0x01, publicKey).toString('hex')}+${Buffer.concat([Buffer.from([0x01]), seed]).toString('base64')}`,
    vkey: vkeyOf(0x01),
    cosignatureVkey: vkeyOf(0x04),
  };
}

/** A plain Ed25519 (0x01) signature line over a note text. */
function noteLine(key: TestKey, text: string): string {
  const signature = sign(null, Buffer.from(text), privateKeyOf(key.seed));
  return `— ${key.name} ${Buffer.concat([keyIdOf(key.name, 0x01, key.publicKey), signature]).toString('base64')}\n`;
}

/** A cosignature/v1 line over a checkpoint body at time t. */
function cosignatureLine(key: TestKey, body: string, t: bigint): string {
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(t);
  const signature = sign(null, Buffer.from(`cosignature/v1\ntime ${t}\n${body}`), privateKeyOf(key.seed));
  return `— ${key.name} ${Buffer.concat([keyIdOf(key.name, 0x04, key.publicKey), time, signature]).toString('base64')}\n`;
}

const log = testKey('log.example/alpha', 0x01);
const witness = testKey('witness.example/w1', 0x02);
const witness2 = testKey('witness.example/w2', 0x03);
const stranger = testKey('witness.example/unknown', 0x04);

const origin = 'log.example/alpha';
const root = createHash('sha256').update('five leaves').digest().toString('base64');
const body = `${origin}\n5\n${root}\n`;
const bodyWithExtensions = `${origin}\n5\n${root}\nextension/one\nextension two\n`;
const logNote = `${body}\n${noteLine(log, body)}`;
const logVerifier = ed25519Verifier(log.vkey);
const at = (t: bigint) => () => t;

/** The signature line of a note that carries `name`. */
function lineOf(note: string, name: string): NoteSignature {
  const line = parseNote(note).signatures.find((s) => s.name === name);
  if (!line) throw new Error(`no line of ${name}`);
  return line;
}

describe('cosignatures (c2sp.org/tlog-cosignature, Ed25519 cosignature/v1)', () => {
  it('signs exactly the line the spec lays out, over the whole body, extension lines included', () => {
    expect(signNote(parseNote(logNote), ed25519Cosigner(witness.skey, at(1_700_000_000n)))).toBe(`${logNote}${cosignatureLine(witness, body, 1_700_000_000n)}`);
    expect(signNote(bodyWithExtensions, ed25519Cosigner(witness.skey, at(0n)))).toBe(
      `${bodyWithExtensions}\n${cosignatureLine(witness, bodyWithExtensions, 0n)}`,
    );
    expect(signNote(body, ed25519Cosigner(witness.skey, at(2n ** 63n - 1n)))).toBe(`${body}\n${cosignatureLine(witness, body, 2n ** 63n - 1n)}`);
  });

  it('verifies a cosignature made without the library, returning the time it carries', () => {
    const signed = `${logNote}${cosignatureLine(witness, body, 1_750_000_000n)}`;
    const opened = openCheckpoint(signed, { origin, logVerifiers: [logVerifier], cosignerVerifiers: [ed25519CosignatureVerifier(witness.cosignatureVkey)] });
    expect(opened.cosignatures.map((c) => [c.name, c.keyId, c.timestamp])).toEqual([
      [witness.name, keyIdOf(witness.name, 0x04, witness.publicKey).readUInt32BE(0), 1_750_000_000n],
    ]);
    const line = lineOf(signed, witness.name);
    expect(verifyCosignature(body, line, ed25519CosignatureVerifier(witness.cosignatureVkey))).toBe(1_750_000_000n);
    const withExtensions = `${bodyWithExtensions}\n${cosignatureLine(witness, bodyWithExtensions, 7n)}`;
    expect(verifyCosignature(bodyWithExtensions, lineOf(withExtensions, witness.name), ed25519CosignatureVerifier(witness.vkey))).toBe(7n);
  });

  it('builds the signed message as header, time line and the whole body', () => {
    expect(cosignatureMessage(body, 1_679_000_000n).toString()).toBe(`cosignature/v1\ntime 1679000000\n${body}`);
    expect(cosignatureMessage(bodyWithExtensions, 0n).toString()).toBe(`cosignature/v1\ntime 0\n${bodyWithExtensions}`);
    expect(cosignatureMessage(body, 2n ** 63n - 1n).toString()).toBe(`cosignature/v1\ntime 9223372036854775807\n${body}`);
  });

  it('reads the timestamp as the 8 big-endian bytes before the Ed25519 signature', () => {
    const bytes = Buffer.alloc(72, 0xab);
    bytes.writeBigUInt64BE(0x0102030405060708n);
    expect(cosignatureTimestamp(bytes)).toBe(0x0102030405060708n);
    bytes.writeBigUInt64BE(2n ** 64n - 1n);
    expect(cosignatureTimestamp(bytes)).toBe(2n ** 64n - 1n);
    // A plain Ed25519 line's bytes after the key ID: 64 of them, no timestamp.
    const plain = Buffer.from(noteLine(log, body).slice(`— ${log.name} `.length, -1), 'base64').subarray(4);
    expect(() => cosignatureTimestamp(plain)).toThrow(/64 bytes, not 72/);
    expect(() => cosignatureTimestamp(Buffer.alloc(73))).toThrow(SignedNoteError);
  });

  it('derives cosigner vkeys and key IDs with type 0x04, and converts a 0x01 vkey of the same key', () => {
    const cosigner = ed25519Cosigner(witness.skey, at(0n));
    expect(cosigner.verifierKey).toBe(witness.cosignatureVkey);
    expect(cosigner.keyId).toBe(keyIdOf(witness.name, 0x04, witness.publicKey).readUInt32BE(0));
    expect(ed25519CosignatureVerifier(witness.cosignatureVkey).keyId).toBe(cosigner.keyId);
    expect(ed25519CosignatureVerifier(witness.vkey).keyId).toBe(cosigner.keyId);
    expect(ed25519CosignatureVerifier(witness.vkey).name).toBe(witness.name);
    const badType = `${witness.name}+${keyIdOf(witness.name, 0x02, witness.publicKey).toString('hex')}+${Buffer.concat([Buffer.from([0x02]), witness.publicKey]).toString('base64')}`;
    for (const bad of [badType, witness.cosignatureVkey.replace(/\+[0-9a-f]{8}\+/, '+00000000+'), 'witness.example', `${witness.cosignatureVkey}AAAA`]) {
      expect(() => ed25519CosignatureVerifier(bad)).toThrow(SignedNoteError);
    }
  });

  it('signs deterministically: a fixed key and time give one exact line, which verifies and returns the time', () => {
    const cosigner = ed25519Cosigner(witness.skey, at(1_727_000_000n));
    const signed = signNote(parseNote(logNote), cosigner);
    expect(signNote(parseNote(logNote), ed25519Cosigner(witness.skey, at(1_727_000_000n)))).toBe(signed);
    const line = lineOf(signed, witness.name);
    expect(line.signature.subarray(0, 8).toString('hex')).toBe(1_727_000_000n.toString(16).padStart(16, '0'));
    expect(verifyCosignature(body, line, ed25519CosignatureVerifier(witness.vkey))).toBe(1_727_000_000n);
    expect(verifyCosignature(body, line, ed25519CosignatureVerifier(cosigner.verifierKey))).toBe(1_727_000_000n);
    // The cosigner key ID uses type 0x04, so the same key's plain 0x01 verifier does not even claim the line.
    expect(line.keyId).not.toBe(parseSignerKey(witness.skey).keyId);
    expect(() => verifyCosignature(body, line, ed25519Verifier(witness.vkey))).toThrow(/^unknown key witness\.example\/w1\+/);
  });

  it('opens a checkpoint in one step: origin, log signature, witness cosignatures with their times', () => {
    const signed = signNote(parseNote(logNote), ed25519Cosigner(witness.skey, at(1_700_000_000n)), ed25519Cosigner(witness2.skey, at(1_700_000_001n)));
    const opened = openCheckpoint(signed, {
      origin,
      logVerifiers: [logVerifier],
      cosignerVerifiers: [ed25519CosignatureVerifier(witness.cosignatureVkey), ed25519CosignatureVerifier(witness2.vkey)],
    });
    expect(opened.checkpoint.size).toBe(5n);
    expect(opened.text).toBe(body);
    expect(opened.logSignatures.map((s) => s.name)).toEqual([log.name]);
    expect(opened.cosignatures.map((c) => [c.name, c.timestamp])).toEqual([
      [witness.name, 1_700_000_000n],
      [witness2.name, 1_700_000_001n],
    ]);
    expect(opened.unverified).toEqual([]);
  });

  it('refuses a tampered timestamp, a cosignature of another body, another origin, and a note only witnesses signed', () => {
    const signed = `${logNote}${cosignatureLine(witness, body, 1_700_000_000n)}`;
    const policy = { origin, logVerifiers: [logVerifier], cosignerVerifiers: [ed25519CosignatureVerifier(witness.cosignatureVkey)] };
    const line = lineOf(signed, witness.name);
    const tampered = Buffer.concat([Buffer.alloc(4), line.signature]);
    tampered.writeUInt32BE(line.keyId);
    tampered.writeBigUInt64BE(1_700_000_001n, 4);
    const forged = signed.replace(line.base64, tampered.toString('base64'));
    expect(() => openCheckpoint(forged, policy)).toThrow(/^invalid signature for key witness\.example\/w1\+/);
    const otherBody = `${origin}\n6\n${root}\n`;
    const moved = `${logNote}${cosignatureLine(witness, otherBody, 1_700_000_000n)}`;
    expect(() => openCheckpoint(moved, policy)).toThrow(/^invalid signature for key witness\.example\/w1\+/);
    const withExtensions = `${bodyWithExtensions}\n${cosignatureLine(witness, bodyWithExtensions, 1n)}`;
    const extensionChanged = withExtensions.replace('extension two', 'extension 2');
    expect(() =>
      verifyCosignature(bodyWithExtensions.replace('extension two', 'extension 2'), lineOf(extensionChanged, witness.name), policy.cosignerVerifiers[0]),
    ).toThrow(/invalid signature/);
    expect(() => openCheckpoint(signed, { ...policy, origin: 'example.com/other-log' })).toThrow(
      'checkpoint is for origin "log.example/alpha", expected "example.com/other-log"',
    );
    expect(() => openCheckpoint(signed, { ...policy, origin: 'example.com/other-log' })).toThrow(SignedNoteError);
    const onlyWitness = `${body}\n${cosignatureLine(witness, body, 1n)}`;
    expect(() => openCheckpoint(onlyWitness, policy)).toThrow(/not signed by any known log key/);
    expect(() => openCheckpoint(`${body}\n${noteLine(stranger, body)}`, policy)).toThrow(/no verifiable signatures|not signed by any known log key/);
  });

  it('ignores but reports a cosignature by an unknown witness; a plain verifier never accepts a cosignature', () => {
    const signed = `${logNote}${cosignatureLine(stranger, body, 5n)}`;
    const opened = openCheckpoint(signed, { origin, logVerifiers: [logVerifier], cosignerVerifiers: [ed25519CosignatureVerifier(witness.cosignatureVkey)] });
    expect(opened.cosignatures).toEqual([]);
    expect(opened.unverified.map((s) => s.name)).toEqual([stranger.name]);
    // A 0x01 verifier given the cosigner's key ID still must not accept: the message and the bytes differ.
    const cosigned = `${body}\n${cosignatureLine(witness, body, 5n)}`;
    const line = lineOf(cosigned, witness.name);
    const plain = { ...ed25519Verifier(witness.vkey), keyId: line.keyId };
    expect(() => openNote(cosigned, [plain])).toThrow(/invalid signature/);
    expect(plain.verify(Buffer.from(body), line.signature)).toBe(false);
    // And a cosignature verifier does not accept a plain signature given its key ID.
    const plainLine = Buffer.from(noteLine(witness, body).slice(`— ${witness.name} `.length, -1), 'base64');
    plainLine.writeUInt32BE(line.keyId);
    expect(() => openNote(`${body}\n— ${witness.name} ${plainLine.toString('base64')}\n`, [ed25519CosignatureVerifier(witness.vkey)])).toThrow(
      /invalid signature/,
    );
  });

  it('refuses timestamps beyond 2^63-1 and bodies that are not checkpoints', () => {
    expect(() => cosignatureMessage(body, 2n ** 63n)).toThrow(/2\^63-1/);
    expect(() => cosignatureMessage(body, -1n)).toThrow(/2\^63-1/);
    expect(() => cosignatureMessage('not a checkpoint\n', 1n)).toThrow(/malformed checkpoint/);
    expect(() => signNote('not a checkpoint\n', ed25519Cosigner(witness.skey))).toThrow(/malformed checkpoint/);
    expect(() => signNote(body, ed25519Cosigner(witness.skey, at(2n ** 63n)))).toThrow(/2\^63-1/);
    const v = ed25519CosignatureVerifier(witness.vkey);
    expect(v.verify(Buffer.from(body), Buffer.alloc(72, 0xff))).toBe(false);
    expect(v.verify(Buffer.from(body), Buffer.alloc(71))).toBe(false);
    expect(v.verify(Buffer.from('not a checkpoint\n'), Buffer.alloc(72))).toBe(false);
    // A valid signature over a time past 2^63-1 cannot be made by this library; made here, it is still refused.
    const t = 2n ** 63n;
    const time = Buffer.alloc(8);
    time.writeBigUInt64BE(t);
    const beyond = Buffer.concat([time, sign(null, Buffer.from(`cosignature/v1\ntime ${t}\n${body}`), privateKeyOf(witness.seed))]);
    expect(v.verify(Buffer.from(body), beyond)).toBe(false);
  });

  it('uses the same seed as a plain signer without mixing key IDs', () => {
    const plain = ed25519Signer(witness.skey);
    const co = ed25519Cosigner(witness.skey, at(0n));
    expect(plain.keyId).toBe(keyIdOf(witness.name, 0x01, witness.publicKey).readUInt32BE(0));
    expect(co.keyId).toBe(computeKeyId(witness.name, SIGNATURE_TYPE_COSIGNATURE_V1, witness.publicKey));
    expect(co.keyId).not.toBe(plain.keyId);
    const both = signNote(body, plain, co);
    const opened = openNote(both, [ed25519Verifier(witness.vkey), ed25519CosignatureVerifier(witness.vkey)]);
    expect(opened.verified.map((s) => s.keyId)).toEqual([plain.keyId, co.keyId]);
  });
});
