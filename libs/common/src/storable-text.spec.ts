import fc from 'fast-check';
import { parseJson } from './json.js';
import { findUnstorableText, holdsOnlyStorableText, isStorableText, jsonMayHoldUnstorableText } from './storable-text.js';

/** Strings of any UTF-16 units: lone surrogates of both halves, pairs, U+0000 and ordinary text. */
const anyUtf16 = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc
    .array(fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '\u0000', 'a', 'é', '\\u0000'), { maxLength: 4 })
    .map((parts) => parts.join('')),
);

const tree = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, anyUtf16, fc.integer(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  // Keys neither empty nor dotted, so that a dotted path names one place.
  object: fc.dictionary(
    anyUtf16.filter((key) => key !== '' && !key.includes('.')),
    tie('value'),
    { maxKeys: 3 },
  ),
})).value;

/** The value at a dotted path (indexes and keys), as findUnstorableText names it. */
function at(value: unknown, path: string[]): unknown {
  return path.reduce((v, part) => (v as Record<string, unknown>)[part], value);
}

describe('storable text', () => {
  it('refuses U+0000 and lone surrogates of either half, and only those', () => {
    for (const bad of ['\u0000', 'a\u0000', '\ud800', '\udc00', 'x\ud83d', '\ude00x', '\udc00\ud800']) expect(isStorableText(bad)).toBe(false);
    for (const good of ['', 'abc', 'é', '\ud83d\ude00', '\\u0000', '\\ud800', '\uffff']) expect(isStorableText(good)).toBe(true);
  });

  it('names the path of a bad value, and says of a bad key that the key is the problem', () => {
    expect(findUnstorableText({ a: { b: [1, 2, 'ok\ud800'] } }, 'input')).toEqual({
      path: 'input.a.b.2',
      message: 'input.a.b.2 must be text PostgreSQL can store: it contains a lone UTF-16 surrogate (\\ud800), which is not Unicode',
    });
    expect(findUnstorableText({ a: { 'k\u0000': 1 } }, 'output')).toEqual({
      path: 'output.a',
      message: 'output.a has a key PostgreSQL cannot store, "k\\u0000": it contains the character U+0000',
    });
    expect(findUnstorableText('\udc00', '')).toMatchObject({ path: '', message: expect.stringMatching(/^body must be text/) });
    expect(findUnstorableText({ a: ['\ud83d\ude00'] }, 'input')).toBeUndefined();
  });

  it('finds exactly the unstorable strings, at the path it names, for any value', () => {
    fc.assert(
      fc.property(tree, (value) => {
        const found = findUnstorableText(value, '');
        const strings: string[] = [];
        JSON.stringify(value, (key, v) => (key !== '' && strings.push(key), typeof v === 'string' && strings.push(v), v));
        expect(found === undefined).toBe(strings.every(isStorableText));
        expect(holdsOnlyStorableText(value)).toBe(found === undefined);
        if (!found) return;
        const target = at(value, found.path === '' ? [] : found.path.split('.'));
        if (typeof target === 'string') expect(isStorableText(target)).toBe(false);
        else expect(Object.keys(target as object).some((key) => !isStorableText(key))).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it('proves from the text alone, where it says no, that every string parsed from it is storable', () => {
    // JSON.stringify escapes lone surrogates and U+0000 and writes other text raw.
    const text = tree.map((v) => JSON.stringify(v));
    let proven = 0;
    fc.assert(
      fc.property(text, (t) => {
        let value: unknown;
        try {
          value = parseJson(t);
        } catch {
          return;
        }
        if (jsonMayHoldUnstorableText(t)) return;
        proven++;
        expect(holdsOnlyStorableText(value)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
    expect(proven).toBeGreaterThan(300);
  });
});
