import fc from 'fast-check';
import { MIN_MASKED_KEY_LENGTH, PROVIDER_KEY_MASK, ProviderKeyMask } from './provider-key-mask.js';

const KEY = 'sk-proj-0123456789abcdef';
const M = PROVIDER_KEY_MASK;

/** Feeds `pieces` through a mask: the bytes passed on after each piece, and what end() gave. */
function masked(key: string | undefined, pieces: string[]): { passed: string[]; rest: string; whole: string } {
  const mask = new ProviderKeyMask(key);
  const passed = pieces.map((piece) => mask.push(Buffer.from(piece)).toString());
  const rest = mask.end().toString();
  return { passed, rest, whole: passed.join('') + rest };
}

describe('ProviderKeyMask', () => {
  it('masks the key in an error body, and passes a chunk without it on unchanged', () => {
    const error = `{"error":{"message":"Incorrect API key provided: ${KEY}. You can find your API key at ..."}}`;
    expect(masked(KEY, [error]).whole).toBe(`{"error":{"message":"Incorrect API key provided: ${M}. You can find your API key at ..."}}`);
    const chunk = Buffer.from('data: {"choices":[]}\n\n');
    expect(new ProviderKeyMask(KEY).push(chunk)).toBe(chunk);
  });

  it('masks a key split at every position across two chunks, holding back only what may begin it', () => {
    const text = `before ${KEY} after`;
    for (let split = 0; split <= text.length; split++) {
      const { passed, whole } = masked(KEY, [text.slice(0, split), text.slice(split)]);
      expect(whole).toBe(`before ${M} after`);
      const inKey = split > 'before '.length && split < 'before '.length + KEY.length;
      // Within the key, the first chunk passes on what precedes it; elsewhere, all of itself.
      expect(passed[0]).toBe(inKey ? 'before ' : text.slice(0, split).replace(KEY, M));
    }
  });

  it('masks a key spread over many one-byte chunks, and repeated or adjacent keys', () => {
    const text = `${KEY}${KEY} x ${KEY}`;
    expect(masked(KEY, [...text]).whole).toBe(`${M}${M} x ${M}`);
    expect(masked(KEY, [text]).whole).toBe(`${M}${M} x ${M}`);
  });

  it('finds a key after a false start that overlaps it ("aab" in "aaab")', () => {
    const key = 'aaaaaaab'; // as "aab", at the length keys are masked from
    expect(masked(key, ['aaaaaaaaab']).whole).toBe(`aa${M}`);
    for (let split = 0; split <= 10; split++) {
      const text = 'aaaaaaaaab';
      expect(masked(key, [text.slice(0, split), text.slice(split)]).whole).toBe(`aa${M}`);
    }
  });

  it('gives back, at the end, a held start of the key that the answer did not finish', () => {
    const { passed, rest } = masked(KEY, ['tail: ', KEY.slice(0, 10)]);
    expect(passed).toEqual(['tail: ', '']);
    expect(rest).toBe(KEY.slice(0, 10));
  });

  it(`masks nothing for a key shorter than ${MIN_MASKED_KEY_LENGTH} characters, or none`, () => {
    for (const key of [undefined, '', 'x', 'ollama', '1234567']) expect(masked(key, ['x ollama 1234567 ', 'x']).whole).toBe('x ollama 1234567 x');
    expect(masked('12345678', ['a 12345678 b']).whole).toBe(`a ${M} b`);
  });

  it('masks multi-byte text around the key byte-exactly, and header values', () => {
    expect(masked(KEY, [`é😀${KEY.slice(0, 3)}`, `${KEY.slice(3)}😀`]).whole).toBe(`é😀${M}😀`);
    expect(new ProviderKeyMask(KEY).text(`Bearer ${KEY}`)).toBe(`Bearer ${M}`);
  });

  it('gives what replaceAll over the whole answer gives, however the answer is cut', () => {
    // Pieces of the key itself make overlapping false starts, and whole keys, common.
    const key = 'abaabab1';
    const text = fc.array(fc.constantFrom('a', 'b', '1', 'aba', 'abaab', key), { maxLength: 20 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(100), { maxLength: 8 }), (s, cuts) => {
        const at = [...new Set(cuts.map((c) => Math.min(c, s.length)))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((start, i) => s.slice(start, [...at, s.length][i]));
        const { passed, whole } = masked(key, pieces);
        expect(whole).toBe(s.replaceAll(key, M));
        // What is held back is never more than the key's length less one.
        const kept = pieces.join('').length - passed.join('').replaceAll(M, key).length;
        expect(kept).toBeLessThan(key.length);
      }),
      { numRuns: 2000 },
    );
  });
});
