import { createHash } from 'node:crypto';
import { formatCheckpoint, parseCheckpoint } from './checkpoint.js';
import { SignedNoteError } from './errors.js';

// Bodies are written out here as c2sp.org/tlog-checkpoint lays them out: origin, decimal tree size, base64 of the
// 32-byte root hash, then optional non-empty extension lines, each line ending in a newline.
const root = createHash('sha256').update('a tree of three leaves').digest();
const rootB64 = root.toString('base64');

describe('checkpoints (c2sp.org/tlog-checkpoint)', () => {
  it('parses a body written line by line', () => {
    const body = `log.example/alpha\n1234567\n${rootB64}\n`;
    const cp = parseCheckpoint(body);
    expect(cp).toMatchObject({ origin: 'log.example/alpha', size: 1234567n, extensions: [] });
    expect(Buffer.from(cp.rootHash).equals(root)).toBe(true);
    const withExtensions = parseCheckpoint(`${body}ext/one 1\n— not a signature, just an extension line\n`);
    expect(withExtensions.extensions).toEqual(['ext/one 1', '— not a signature, just an extension line']);
    expect(parseCheckpoint(`Журнал №1 with spaces\n0\n${rootB64}\n`).origin).toBe('Журнал №1 with spaces');
  });

  it('formats exactly the lines the spec lays out', () => {
    expect(formatCheckpoint({ origin: 'o', size: 12n, rootHash: root, extensions: [] })).toBe(`o\n12\n${rootB64}\n`);
    expect(formatCheckpoint({ origin: 'log.example/alpha', size: 0n, rootHash: root, extensions: ['a', 'b c'] })).toBe(
      `log.example/alpha\n0\n${rootB64}\na\nb c\n`,
    );
  });

  it('round-trips, extension lines included, and at the uint64 bounds', () => {
    for (const cp of [
      { origin: 'example.com/log', size: 0n, rootHash: root, extensions: [] },
      { origin: 'Harbour Ledger', size: 918273n, rootHash: root, extensions: ['c0ffee42', 'Low tide at noon'] },
      { origin: 'example.com/big', size: 2n ** 64n - 1n, rootHash: root, extensions: [] },
    ]) {
      const text = formatCheckpoint(cp);
      expect(parseCheckpoint(text)).toEqual({ ...cp, rootHash: Buffer.from(root) });
      expect(formatCheckpoint(parseCheckpoint(text))).toBe(text);
    }
  });

  it.each([
    ['an empty body', '', /must end with a newline/],
    ['no final newline', `o\n1\n${rootB64}`, /must end with a newline/],
    ['two lines', `o\n1\n`, /2 lines, at least 3/],
    ['an empty origin', `\n1\n${rootB64}\n`, /empty origin/],
    ['an empty size', `o\n\n${rootB64}\n`, /tree size/],
    ['a leading zero', `o\n012\n${rootB64}\n`, /tree size/],
    ['a plus sign', `o\n+12\n${rootB64}\n`, /tree size/],
    ['a minus sign', `o\n-1\n${rootB64}\n`, /tree size/],
    ['a hexadecimal size', `o\n0x10\n${rootB64}\n`, /tree size/],
    ['a space after the size', `o\n12 \n${rootB64}\n`, /tree size/],
    ['2^64', `o\n18446744073709551616\n${rootB64}\n`, /tree size/],
    ['a million digits', `o\n${'9'.repeat(1_000_000)}\n${rootB64}\n`, /tree size/],
    ['an empty root', `o\n1\n\n`, /0 bytes/],
    ['a 31-byte root', `o\n1\n${root.subarray(1).toString('base64')}\n`, /31 bytes/],
    ['a 33-byte root', `o\n1\n${Buffer.concat([root, Buffer.from([0])]).toString('base64')}\n`, /33 bytes/],
    ['a root in hex', `o\n1\n${root.toString('hex')}\n`, /root hash is (not canonical|48 bytes)/],
    ['unpadded base64', `o\n1\n${rootB64.replace(/=$/, '')}\n`, /base64/],
    ['base64url', `o\n1\n${root.toString('base64url')}=\n`, /base64/],
    ['CRLF', `o\r\n1\r\n${rootB64}\r\n`, /control character/],
    ['a NUL in the origin', `o\0\n1\n${rootB64}\n`, /control character/],
    ['a lone surrogate', `o\ud800\n1\n${rootB64}\n`, /lone surrogate/],
    ['an empty extension line', `o\n1\n${rootB64}\n\next\n`, /empty extension line/],
    ['a trailing blank line', `o\n1\n${rootB64}\n\n`, /empty extension line/],
  ])('refuses %s', (_what, text, message) => {
    expect(() => parseCheckpoint(text)).toThrow(message);
    expect(() => parseCheckpoint(text)).toThrow(SignedNoteError);
  });

  it('refuses with the malformed-checkpoint code, never another error type', () => {
    for (const text of ['', 'o\n', `o\n1\n${rootB64}\n\n— log AAAA\n`, `\n\n\n`]) {
      let thrown: unknown;
      try {
        parseCheckpoint(text);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SignedNoteError);
      expect((thrown as SignedNoteError).code).toBe('malformed-checkpoint');
    }
  });

  it('refuses to format what it could not parse', () => {
    expect(() => formatCheckpoint({ origin: 'a\nb', size: 1n, rootHash: root, extensions: [] })).toThrow(SignedNoteError);
    expect(() => formatCheckpoint({ origin: '', size: 1n, rootHash: root, extensions: [] })).toThrow(/empty origin/);
    expect(() => formatCheckpoint({ origin: 'o', size: -1n, rootHash: root, extensions: [] })).toThrow(SignedNoteError);
    expect(() => formatCheckpoint({ origin: 'o', size: 2n ** 64n, rootHash: root, extensions: [] })).toThrow(/tree size/);
    expect(() => formatCheckpoint({ origin: 'o', size: 1n, rootHash: root.subarray(2), extensions: [] })).toThrow(/30 bytes/);
    expect(() => formatCheckpoint({ origin: 'o', size: 1n, rootHash: root, extensions: [''] })).toThrow(/empty extension/);
    expect(() => formatCheckpoint({ origin: 'o', size: 1n, rootHash: root, extensions: ['x\ny'] })).toThrow(SignedNoteError);
  });
});
