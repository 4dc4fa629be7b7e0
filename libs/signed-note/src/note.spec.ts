import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { SignedNoteError } from './errors.js';
import { ed25519Signer, ed25519Verifier, generateKey, type NoteVerifier } from './keys.js';
import { openNote, parseNote, signNote, UnverifiedNoteError } from './note.js';

// Keys come from fixed seeds written here; every signature line the tests expect is computed with node:crypto from
// the c2sp.org/signed-note rules, not through the library: "— <name> <base64(key ID ‖ Ed25519(text))>\n", the key ID
// being SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[:4].

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

interface TestKey {
  name: string;
  seed: Buffer;
  keyId: number;
  vkey: string;
  skey: string;
}

function testKey(name: string, fill: number): TestKey {
  const seed = Buffer.alloc(32, fill);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x as string, 'base64url');
  const id = createHash('sha256')
    .update(Buffer.concat([Buffer.from(name, 'utf8'), Buffer.from([0x0a, 0x01]), publicKey]))
    .digest()
    .subarray(0, 4);
  return {
    name,
    seed,
    keyId: id.readUInt32BE(0),
    vkey: `${name}+${id.toString('hex')}+${Buffer.concat([Buffer.from([0x01]), publicKey]).toString('base64')}`,
    skey: `PRIVATE+KEY+${name}+${id.toString('hex')}+${Buffer.concat([Buffer.from([0x01]), seed]).toString('base64')}`,
  };
}

/** The signature line's base64, computed without the library. */
function signatureBase64(key: TestKey, text: string): string {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, key.seed]), format: 'der', type: 'pkcs8' });
  const id = Buffer.alloc(4);
  id.writeUInt32BE(key.keyId);
  return Buffer.concat([id, sign(null, Buffer.from(text, 'utf8'), privateKey)]).toString('base64');
}

const lineOf = (key: TestKey, text: string) => `— ${key.name} ${signatureBase64(key, text)}\n`;

const alice = testKey('alice.example/log', 0x01);
const bob = testKey('bob.example/log', 0x02);
const carol = testKey('carol.example/witness', 0x03);
const dave = testKey('dave.example/журнал', 0x04);

const text = 'The quick log appends in order.\nEvery entry is kept, and none is changed.\n';
const aliceB64 = signatureBase64(alice, text);
const bobB64 = signatureBase64(bob, text);
const aliceLine = `— ${alice.name} ${aliceB64}\n`;
const bobLine = `— ${bob.name} ${bobB64}\n`;
const good = `${text}\n${aliceLine}`;

const aliceVerifier = ed25519Verifier(alice.vkey);
const bobVerifier = ed25519Verifier(bob.vkey);

/** The same base64 with one signature byte (not the key ID) changed: still well-formed, no longer valid. */
function tamper(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[20] ^= 0x01;
  return bytes.toString('base64');
}

function errorOf(run: () => unknown): SignedNoteError {
  try {
    run();
  } catch (error) {
    if (error instanceof SignedNoteError) return error;
    throw error;
  }
  throw new Error('expected a SignedNoteError');
}

const brief = (s: { name: string; keyId: number; base64: string }) => ({ name: s.name, keyId: s.keyId, base64: s.base64 });
const aliceBrief = { name: alice.name, keyId: alice.keyId, base64: aliceB64 };
const bobBrief = { name: bob.name, keyId: bob.keyId, base64: bobB64 };
const label = (k: TestKey) => `${k.name}+${k.keyId.toString(16).padStart(8, '0')}`;

describe('signed notes: the c2sp.org/signed-note format, recomputed with node:crypto', () => {
  it('signs byte for byte as the spec lays a signature line out', () => {
    expect(signNote(text, ed25519Signer(alice.skey))).toBe(good);
    expect(signNote(text, ed25519Signer(alice.skey), ed25519Signer(bob.skey))).toBe(`${text}\n${aliceLine}${bobLine}`);
    const unicode = 'Grüße aus dem Protokoll — ✓\n';
    expect(signNote(unicode, ed25519Signer(dave.skey))).toBe(`${unicode}\n${lineOf(dave, unicode)}`);
  });

  it('opens a note signed without the library: one key known, the other reported unverified', () => {
    const n = openNote(`${text}\n${aliceLine}${bobLine}`, [aliceVerifier]);
    expect(n.text).toBe(text);
    expect(n.verified.map(brief)).toEqual([aliceBrief]);
    expect(n.unverified.map(brief)).toEqual([bobBrief]);
    expect(n.verified[0].signature).toEqual(Buffer.from(aliceB64, 'base64').subarray(4));
  });

  it('verifies every signature when every key is known', () => {
    const n = openNote(`${text}\n${aliceLine}${bobLine}`, [bobVerifier, aliceVerifier]);
    expect(n.verified.map(brief)).toEqual([aliceBrief, bobBrief]);
    expect(n.unverified).toEqual([]);
  });

  it('re-signs a parsed note identically, and replaces only the signer’s own line', () => {
    const carolLine = lineOf(carol, text);
    expect(signNote(parseNote(good))).toBe(good);
    expect(signNote(parseNote(`${text}\n${aliceLine}${carolLine}`), ed25519Signer(bob.skey), ed25519Signer(alice.skey))).toBe(
      `${text}\n${carolLine}${bobLine}${aliceLine}`,
    );
    // An existing line of the signer's key is replaced without being checked, even a bad one.
    expect(signNote(parseNote(`${text}\n— ${alice.name} ${tamper(aliceB64)}\n${carolLine}`), ed25519Signer(alice.skey))).toBe(
      `${text}\n${carolLine}${aliceLine}`,
    );
    const existing = [{ name: alice.name, keyId: alice.keyId, base64: 'AAAA', signature: Buffer.alloc(0) }];
    expect(signNote({ text, signatures: existing }, ed25519Signer(alice.skey))).toBe(good);
  });

  it('refuses to sign malformed texts, existing lines or signers', () => {
    const signer = ed25519Signer(alice.skey);
    expect(errorOf(() => signNote('no final newline', signer)).code).toBe('malformed-note');
    expect(errorOf(() => signNote('a\rb\n', signer)).code).toBe('malformed-note');
    expect(errorOf(() => signNote(text)).code).toBe('malformed-note');
    const existing = (name: string, keyId: number, base64: string) => ({ text, signatures: [{ name, keyId, base64, signature: Buffer.alloc(0) }] });
    expect(errorOf(() => signNote(existing('two words', 1, 'AAAAAAA=')))).toMatchObject({ code: 'malformed-note' });
    expect(errorOf(() => signNote(existing(bob.name, bob.keyId, 'not base64!')))).toMatchObject({ code: 'malformed-note' });
    expect(errorOf(() => signNote(existing(bob.name, bob.keyId + 1, bobB64), signer))).toMatchObject({
      code: 'malformed-note',
      message: expect.stringMatching(/does not encode its key ID/),
    });
    expect(errorOf(() => signNote(existing(bob.name, bob.keyId, 'AAAA'), signer))).toMatchObject({ code: 'malformed-note' });
    expect(errorOf(() => signNote(text, { ...signer, name: 'bad name', sign: signer.sign })).code).toBe('invalid-signer');
    expect(errorOf(() => signNote(text, { ...signer, name: '', sign: signer.sign })).code).toBe('invalid-signer');
    const failing = {
      ...signer,
      sign: (): Uint8Array => {
        throw new Error('the HSM is unplugged');
      },
    };
    expect(() => signNote(text, failing)).toThrow('the HSM is unplugged');
  });

  it('refuses a note no known key signed, handing back what it saw', () => {
    const e = errorOf(() => openNote(`${text}\n${aliceLine}${bobLine}`, []));
    expect(e).toBeInstanceOf(UnverifiedNoteError);
    expect(e.code).toBe('no-verified-signature');
    expect(e.message).toMatch(/^note has no verifiable signatures/);
    expect(e.message).toContain(label(alice));
    expect((e as UnverifiedNoteError).text).toBe(text);
    expect((e as UnverifiedNoteError).unverified.map(brief)).toEqual([aliceBrief, bobBrief]);
    // A verifier with the right name but another key ID does not know the line.
    const wrongId = { ...aliceVerifier, keyId: (alice.keyId + 1) >>> 0 };
    expect(errorOf(() => openNote(good, [wrongId])).code).toBe('no-verified-signature');
  });

  it('calls a key ambiguous only when a note uses it', () => {
    expect(errorOf(() => openNote(`${text}\n${bobLine}`, [bobVerifier, aliceVerifier, bobVerifier]))).toMatchObject({
      code: 'ambiguous-key',
      message: expect.stringMatching(new RegExp(`^ambiguous key ${label(bob).replace(/[.+]/g, '\\$&')}`)),
    });
    expect(openNote(good, [bobVerifier, aliceVerifier, bobVerifier]).verified).toHaveLength(1);
  });

  it('refuses more than 100 signature lines, known or not, in either duplicates mode', () => {
    for (const verifiers of [[aliceVerifier], []]) {
      for (const duplicates of ['ignore', 'reject'] as const) {
        expect(errorOf(() => openNote(`${text}\n${aliceLine.repeat(101)}`, verifiers, { duplicates })).code).toBe('too-many-signatures');
      }
    }
    expect(openNote(`${text}\n${bobLine.repeat(99)}${aliceLine}`, [aliceVerifier]).unverified).toHaveLength(1);
  });

  it('refuses an invalid signature of a known key, naming the key', () => {
    expect(errorOf(() => openNote(`${text}\n— ${alice.name} ${tamper(aliceB64)}\n`, [aliceVerifier]))).toMatchObject({
      code: 'invalid-signature',
      message: `invalid signature for key ${label(alice)}`,
    });
    // A valid line of another key under this key's name and ID is no signature of it either.
    const stolen = Buffer.from(bobB64, 'base64');
    stolen.writeUInt32BE(alice.keyId);
    expect(errorOf(() => openNote(`${text}\n— ${alice.name} ${stolen.toString('base64')}\n`, [aliceVerifier])).code).toBe('invalid-signature');
  });

  it("in 'ignore' mode drops byte-identical repeats; repeats of unknown keys are always dropped", () => {
    const bobTampered = `— ${bob.name} ${tamper(bobB64)}\n`;
    const note = `${text}\n${aliceLine}${aliceLine}${bobLine}${bobLine}${bobTampered}`;
    const n = openNote(note, [aliceVerifier], { duplicates: 'ignore' });
    expect(n.verified.map(brief)).toEqual([aliceBrief]);
    expect(n.unverified.map(brief)).toEqual([bobBrief, { ...bobBrief, base64: tamper(bobB64) }]);
    expect(openNote(`${text}\n${aliceLine}${bobLine}${bobLine}`, [aliceVerifier]).unverified.map(brief)).toEqual([bobBrief]);
  });

  it('by default refuses a second line of a known key; ignoring repeats still verifies a different line', () => {
    expect(errorOf(() => openNote(`${text}\n${aliceLine}${aliceLine}`, [aliceVerifier]))).toMatchObject({
      code: 'duplicate-signature',
      message: `duplicate signature for key ${label(alice)}`,
    });
    // The spec says a known key's signature MUST be verified, so a second, different line is not skipped.
    const bad = `— ${alice.name} ${tamper(aliceB64)}\n`;
    expect(errorOf(() => openNote(`${text}\n${aliceLine}${bad}`, [aliceVerifier], { duplicates: 'ignore' })).code).toBe('invalid-signature');
  });

  it('reports lines of unknown keys, even ones copying a valid signature, and verifies the known ones', () => {
    const signed = `${text}\n${aliceLine}${bobLine}— stranger.example/one ${bobB64}\n— stranger.example/two ${bobB64}\n`;
    const n = openNote(signed, [aliceVerifier, bobVerifier]);
    expect(n.verified.map((s) => s.name)).toEqual([alice.name, bob.name]);
    expect(n.unverified.map((s) => s.name)).toEqual(['stranger.example/one', 'stranger.example/two']);
  });

  it('signs with several keys at once, each line verifying', () => {
    const keys = [alice, bob, carol, dave];
    const signed = signNote(text, ...keys.map((k) => ed25519Signer(k.skey)));
    expect(signed).toBe(`${text}\n${keys.map((k) => lineOf(k, text)).join('')}`);
    expect(
      openNote(
        signed,
        keys.map((k) => ed25519Verifier(k.vkey)),
      ).verified,
    ).toHaveLength(4);
  });
});

describe('signed notes: hostile input', () => {
  const signer = ed25519Signer(alice.skey);
  const known: NoteVerifier[] = [aliceVerifier];
  // Standard base64 of 68 bytes ends in "X=", X carrying two padding bits; the next digit sets one of them.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const lastDigit = aliceB64.at(-2) as string;
  const nonCanonical = `${aliceB64.slice(0, -2)}${alphabet[alphabet.indexOf(lastDigit) + 1]}=`;
  const urlSafe = aliceB64.replace(/\+/g, '-').replace(/\//g, '_');

  it('builds its malformed signatures from a base64 that needs them', () => {
    expect(aliceB64).toMatch(/[+/]/);
    expect(aliceB64).toMatch(/[A-Za-z0-9+/]=$/);
    expect(alphabet.indexOf(lastDigit) % 4).toBe(0);
  });

  it.each([
    ['an empty note', '', /must end with a newline/],
    ['a truncated note', good.slice(0, -10), /must end with a newline/],
    ['the text alone', text, /no blank line/],
    ['a blank line but no signature', `${text}\n`, /no signature lines/],
    ['CRLF line ends', good.replace(/\n/g, '\r\n'), /control character U\+000d/],
    ['a tab in the text', good.replace('quick log', 'quick\tlog'), /control character U\+0009/],
    ['a NUL in the text', good.replace('quick', 'qu\0ick'), /control character U\+0000/],
    ['two spaces after the dash', good.replace('— ', '—  '), /invalid key name/],
    ['no space after the name', good.replace(`${alice.name} `, alice.name), /no space between key name and signature/],
    ['a trailing space', good.replace(/\n$/, ' \n'), /base64/],
    ['a hyphen for the em dash', good.replace('— ', '- '), /does not start with "— "/],
    ['bad base64', good.replace(aliceB64, `${aliceB64.slice(0, 10)}!${aliceB64.slice(11)}`), /not canonical standard base64/],
    ['base64url', good.replace(aliceB64, urlSafe), /not canonical standard base64/],
    ['unpadded base64', good.replace(aliceB64, aliceB64.slice(0, -1)), /not canonical standard base64/],
    ['non-zero padding bits', good.replace(aliceB64, nonCanonical), /not canonical standard base64/],
    ['a signature too short', `${text}\n— ${alice.name} AAAAAA==\n`, /too short/],
    ['an empty line after the signatures', `${good}\n`, /no signature lines/],
    ['an empty line between the signatures', `${text}\n${aliceLine}\n${bobLine}`, /invalid signature|no verifiable/],
  ])('refuses %s', (_what, note, message) => {
    expect(() => openNote(note, known)).toThrow(message);
    expect(() => openNote(note, known)).toThrow(SignedNoteError);
  });

  it('still decodes the canonical form of each malformed base64 it refuses', () => {
    expect(Buffer.from(nonCanonical, 'base64').equals(Buffer.from(aliceB64, 'base64'))).toBe(true);
    expect(Buffer.from(urlSafe, 'base64').equals(Buffer.from(aliceB64, 'base64'))).toBe(true);
  });

  it('refuses invalid UTF-8 given as bytes, and lone surrogates given as text', () => {
    const overlong = Buffer.concat([Buffer.from(text.slice(0, 5)), Buffer.from([0xc0, 0xaf]), Buffer.from(good.slice(5))]);
    expect(() => openNote(overlong, known)).toThrow(/not valid UTF-8/);
    expect(() => openNote(Buffer.concat([Buffer.from(good), Buffer.from([0xff])]), known)).toThrow(/not valid UTF-8/);
    expect(() => openNote(Buffer.from([0xed, 0xa0, 0x80, 0x0a, 0x0a]), known)).toThrow(/not valid UTF-8/);
    expect(() => openNote(Buffer.from(good).subarray(0, good.indexOf('—') + 1), known)).toThrow(SignedNoteError);
    expect(() => openNote(`\ud800${good}`, known)).toThrow(/lone surrogate/);
    expect(() => signNote(`\ud800${text}`, signer)).toThrow(/lone surrogate/);
    expect(openNote(Buffer.from(good), known).text).toBe(text);
  });

  it('refuses a huge note before reading it, and 1,000 signature lines at the 101st', () => {
    const huge = `${'a'.repeat(2 << 20)}\n${good}`;
    const started = performance.now();
    expect(errorOf(() => openNote(huge, known)).code).toBe('note-too-large');
    expect(errorOf(() => openNote(Buffer.from(huge), known)).code).toBe('note-too-large');
    expect(errorOf(() => openNote(good, known, { maxBytes: 100 })).code).toBe('note-too-large');
    const many = `${text}\n${bobLine.repeat(1000)}`;
    expect(errorOf(() => openNote(many, known)).message).toBe('malformed note: more than 100 signature lines');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(openNote(`${text}\n${bobLine.repeat(15)}${aliceLine}`, known, { maxSignatures: 16 }).verified).toHaveLength(1);
    expect(errorOf(() => openNote(`${text}\n${bobLine.repeat(16)}${aliceLine}`, known, { maxSignatures: 16 })).code).toBe('too-many-signatures');
  });

  it('reports an unknown key and keeps texts with blank lines whole', () => {
    const { signerKey, verifierKey } = generateKey('example.com/other');
    const paragraphs = 'one\n\ntwo\n\n\nthree\n';
    const n = openNote(signNote(paragraphs, signer, ed25519Signer(signerKey)), known);
    expect(n.text).toBe(paragraphs);
    expect(n.unverified.map((s) => s.name)).toEqual(['example.com/other']);
    expect(openNote(signNote(paragraphs, ed25519Signer(signerKey)), [ed25519Verifier(verifierKey)]).text).toBe(paragraphs);
  });

  it('refuses a note whose text was changed after signing', () => {
    expect(errorOf(() => openNote(good.replace('quick', 'Quick'), known)).code).toBe('invalid-signature');
    expect(errorOf(() => openNote(`extra line\n${good}`, known)).code).toBe('invalid-signature');
    expect(errorOf(() => openNote(good.replace(text, text.slice(0, text.indexOf('\n') + 1)), known)).code).toBe('invalid-signature');
  });
});
