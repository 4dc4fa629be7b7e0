import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { SignedNoteError } from './errors.js';
import { ed25519Verifier } from './keys.js';
import { formatTlogProof, parseTlogProof } from './proof-file.js';
import { openCheckpoint } from './signed-checkpoint.js';

// The signed checkpoint and every expected proof file are written out here from c2sp.org/tlog-proof@v1 and
// c2sp.org/signed-note, with a log key from a fixed seed and signatures made with node:crypto, not the library.

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const logName = 'log.example/alpha';
const logPrivateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.alloc(32, 0x01)]), format: 'der', type: 'pkcs8' });
const logPublicKey = Buffer.from(createPublicKey(logPrivateKey).export({ format: 'jwk' }).x as string, 'base64url');
const logKeyId = createHash('sha256')
  .update(Buffer.concat([Buffer.from(`${logName}\n`), Buffer.from([0x01]), logPublicKey]))
  .digest()
  .subarray(0, 4);
const logVkey = `${logName}+${logKeyId.toString('hex')}+${Buffer.concat([Buffer.from([0x01]), logPublicKey]).toString('base64')}`;

const sha = (s: string) => createHash('sha256').update(s).digest();
const signed = (text: string) => `${text}\n— ${logName} ${Buffer.concat([logKeyId, sign(null, Buffer.from(text), logPrivateKey)]).toString('base64')}\n`;

const origin = 'log.example/alpha';
const body = `${origin}\n73\n${sha('root of 73').toString('base64')}\n`;
const checkpoint = signed(body);

describe('proof files (c2sp.org/tlog-proof@v1)', () => {
  it('formats the lines the spec lays out, byte for byte, and parses them back', () => {
    const cases = [
      { index: 0n, hashes: [] as Buffer[] },
      { index: 72n, hashes: [sha('h1'), sha('h2'), sha('h3')], extra: Buffer.from('release-2.3.4.tar.gz') },
      { index: 2n ** 64n - 1n, hashes: Array.from({ length: 64 }, (_, i) => sha(`level ${i}`)), extra: Buffer.from([0x00, 0xff, 0x10]) },
      { index: 9n, hashes: [sha('only')], extra: Buffer.alloc(0) },
    ];
    for (const c of cases) {
      const extraLine = c.extra === undefined ? '' : `extra ${c.extra.toString('base64')}\n`;
      const want = `c2sp.org/tlog-proof@v1\n${extraLine}index ${c.index}\n${c.hashes.map((h) => `${h.toString('base64')}\n`).join('')}\n${checkpoint}`;
      const proof = { ...c, checkpoint };
      expect(formatTlogProof(proof)).toBe(want);
      expect(parseTlogProof(want)).toEqual({ ...proof, origin });
      expect(parseTlogProof(Buffer.from(want))).toEqual({ ...proof, origin });
    }
  });

  it('parses a proof written by hand and hands a judge what openCheckpoint needs', () => {
    const hashes = [sha('a'), sha('b'), sha('c'), sha('d'), sha('e')];
    const text = [
      'c2sp.org/tlog-proof@v1',
      `extra ${Buffer.from('release-2.3.4.tar.gz').toString('base64')}`,
      'index 42',
      ...hashes.map((h) => h.toString('base64')),
      '',
      checkpoint,
    ].join('\n');
    const parsed = parseTlogProof(Buffer.from(text));
    expect(parsed.index).toBe(42n);
    expect(Buffer.from(parsed.extra ?? []).toString()).toBe('release-2.3.4.tar.gz');
    expect(parsed.hashes.map((h) => Buffer.from(h).toString('hex'))).toEqual(hashes.map((h) => h.toString('hex')));
    expect(formatTlogProof(parsed)).toBe(text);
    const opened = openCheckpoint(parsed.checkpoint, { origin: parsed.origin, logVerifiers: [ed25519Verifier(logVkey)] });
    expect(opened.checkpoint.size).toBe(73n);
  });

  const hash = sha('x').toString('base64');
  const good = formatTlogProof({ index: 5n, hashes: [sha('x')], checkpoint });
  it('writes the proof the hostile cases below start from', () => {
    expect(good).toBe(`c2sp.org/tlog-proof@v1\nindex 5\n${hash}\n\n${checkpoint}`);
    expect(parseTlogProof(good).index).toBe(5n);
  });

  it.each([
    ['an empty file', '', /ends without a newline/],
    ['the header alone', 'c2sp.org/tlog-proof@v1\n', /ends without a newline/],
    ['another version', good.replace('@v1', '@v2'), /first line must be c2sp\.org\/tlog-proof@v1/],
    ['a header with a trailing space', good.replace('@v1\n', '@v1 \n'), /first line must be/],
    ['no index line', good.replace('index 5\n', ''), /missing index line/],
    ['an index without a value', good.replace('index 5', 'index '), /index is not a decimal/],
    ['an index without its space', good.replace('index 5', 'index5'), /missing index line/],
    ['a leading zero in the index', good.replace('index 5', 'index 05'), /index is not a decimal/],
    ['a negative index', good.replace('index 5', 'index -5'), /index is not a decimal/],
    ['an index of 2^64', good.replace('index 5', 'index 18446744073709551616'), /index is not a decimal/],
    ['a space before the index value', good.replace('index 5', 'index  5'), /index is not a decimal/],
    ['CRLF', good.replace(/\n/g, '\r\n'), /first line must be/],
    ['extra after the index', good.replace('index 5\n', 'index 5\nextra AAAA\n'), /proof hash 1 is not canonical standard base64/],
    ['two extra lines', good.replace('index 5\n', 'extra AAAA\nextra AAAA\nindex 5\n'), /missing index line/],
    ['extra in bad base64', good.replace('index 5\n', 'extra AAA\nindex 5\n'), /extra data is not canonical standard base64/],
    ['a 31-byte hash', good.replace(hash, sha('x').subarray(1).toString('base64')), /proof hash 1 is 31 bytes, not 32/],
    ['a 33-byte hash', good.replace(hash, Buffer.concat([sha('x'), Buffer.from([1])]).toString('base64')), /proof hash 1 is 33 bytes, not 32/],
    ['a hash in hex', good.replace(hash, sha('x').toString('hex')), /proof hash 1 is 48 bytes/],
    ['a hash in base64url', good.replace(hash, sha('x').toString('base64url')), /proof hash 1 is not canonical standard base64/],
    ['no blank line before the checkpoint', good.replace(/\n\n/, '\n'), /proof hash 2/],
    ['no checkpoint', good.slice(0, good.indexOf('\n\n') + 2), /checkpoint: malformed note/],
    ['a truncated checkpoint', good.slice(0, -20), /checkpoint: malformed note/],
    ['a checkpoint without signatures', good.slice(0, good.lastIndexOf('\n\n') + 1), /checkpoint: malformed note/],
    ['a signed note that is not a checkpoint', good.replace(checkpoint, signed('hello\n')), /checkpoint: malformed checkpoint/],
    ['a checkpoint with a bad root', good.replace(checkpoint, signed(`${origin}\n73\nAAAA\n`)), /checkpoint: malformed checkpoint: root hash is 3 bytes/],
    ['65 hashes', good.replace('index 5\n', `index 5\n${`${hash}\n`.repeat(65)}`), /more than 64 proof hashes/],
    ['invalid UTF-8', Buffer.concat([Buffer.from(good), Buffer.from([0xff])]), /not valid UTF-8/],
    ['a huge file', `${good}${'a'.repeat(3 << 20)}`, /bytes, the limit is/],
  ])('refuses %s', (what, text, message) => {
    let thrown: unknown;
    try {
      parseTlogProof(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SignedNoteError);
    // Bytes that are not UTF-8 are refused by the shared decoder, under its code; everything else is a proof error.
    const code = what === 'invalid UTF-8' ? 'malformed-note' : 'malformed-proof';
    expect(thrown).toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it('applies the note limits to the checkpoint it carries', () => {
    expect(() => parseTlogProof(good, { maxBytes: 100 })).toThrow(/limit is 200/);
    const twoSignatures = good.replace(checkpoint, `${checkpoint}${checkpoint.slice(checkpoint.indexOf('\n\n') + 2)}`);
    expect(parseTlogProof(twoSignatures).checkpoint).toBe(checkpoint + checkpoint.slice(checkpoint.indexOf('\n\n') + 2));
    expect(() => parseTlogProof(twoSignatures, { maxSignatures: 1 })).toThrow(/checkpoint: malformed note: more than 1 signature lines/);
  });

  it('refuses to format what it could not parse', () => {
    expect(() => formatTlogProof({ index: -1n, hashes: [], checkpoint })).toThrow(/uint64/);
    expect(() => formatTlogProof({ index: 2n ** 64n, hashes: [], checkpoint })).toThrow(/uint64/);
    expect(() => formatTlogProof({ index: 0n, hashes: [sha('a').subarray(1)], checkpoint })).toThrow(/32 bytes/);
    expect(() => formatTlogProof({ index: 0n, hashes: Array.from({ length: 65 }, () => sha('a')), checkpoint })).toThrow(/more than 64/);
    expect(() => formatTlogProof({ index: 0n, hashes: [], checkpoint: 'test checkpoint\n' })).toThrow(/checkpoint: malformed note/);
    expect(() => formatTlogProof({ index: 0n, hashes: [], checkpoint: signed('hello\n') })).toThrow(/checkpoint: malformed checkpoint/);
    expect(() => formatTlogProof({ index: 0n, hashes: [], checkpoint: body })).toThrow(SignedNoteError);
  });
});
