import fc from 'fast-check';
import { VerdictComparison } from './testing/compare.js';
import { loadPageVerifier } from './testing/page-verifier.js';
import { logEntry, noteKey, ProofLog } from './testing/proof-log.js';

// The entry is read without a JS number in the way, yet to the same verdicts as verifyProofFile, which reads it with
// libs/common's parseJson: signed entries of every shape, one-leaf trees, both verifiers.

const ORIGIN = 'gw.example/default';
const gateway = noteKey('gw.example');
const withFields = (rest: string) => `{"accountId":"default","seq":1${rest}}`;
const signedEntry = (entry: string | Buffer, origin = ORIGIN) => new ProofLog(origin).add(entry).proof(0, { signers: [gateway.signer] });

describe("the verifier page's reading of the entry", () => {
  const compare = new VerdictComparison();
  const check = async (label: string, entry: string | Buffer, options: { origin?: string; sameReason?: boolean } = {}) =>
    compare.check(label, await signedEntry(entry, options.origin), { key: gateway.vkey }, { sameReason: options.sameReason ?? true });
  afterEach(() => expect(compare.mismatches.splice(0)).toEqual([]));

  it('takes seq as String() of what was parsed, and accountId as a string ending the origin', async () => {
    const seqs = ['1', '2', '0', '"1"', '"01"', '1.0', '1e0', '-0', '[1]', '[[1]]', '["1"]', '[1,null]', '[null,1]', 'true', 'null', '{}', '{"seq":1}', '[]'];
    for (const seq of seqs) await check(`seq ${seq}`, `{"accountId":"default","seq":${seq}}`);
    await check('no seq', '{"accountId":"default"}');
    for (const account of ['"default"', '"other"', '""', '"gw.example/default"', '"\\u0064efault"', '"default\\u0000"']) {
      await check(`account ${account}`, `{"accountId":${account},"seq":1}`);
    }
    await check('no account', '{"seq":1}');
    for (const account of ['5', '1.5e3', 'null', '{"a":1}', '["default"]', '123456789012345678901234567890']) {
      await check(`account ${account}`, `{"accountId":${account},"seq":1}`, { sameReason: false });
    }
    await check('another origin', logEntry(1), { origin: 'gw.example/other' });
    await check('an origin that only ends like the account', logEntry(1), { origin: 'gw.example/xdefault' });
    expect(await check('the log', logEntry(1))).toMatchObject({ ok: true, entry: logEntry(1) });
  });

  it('refuses what is not JSON, or JSON that is not an object, and keys given twice with two values', async () => {
    const texts = ['', ' ', 'hello', '1', '"x"', 'null', '[1]', '{', withFields(','), withFields(',"a":NaN'), withFields(',"a":01'), withFields(",'a':1")];
    for (const text of texts) await check(`text ${JSON.stringify(text)}`, text);
    const twice = ['"seq":1', '"seq":2', '"seq":1.0', '"x":{"a":1},"x":{"a":1}', '"x":{"a":1},"x":{"a":2}', '"x":[],"x":{}', '"x":{"0":1},"x":[1]'];
    for (const pair of twice) await check(`twice ${pair}`, withFields(`,${pair}`));
    await check('seq twice, the last an array', '{"accountId":"default","seq":{"0":1},"seq":[1]}');
    await check('"\\u0041" and "A"', withFields(',"x":"\\u0041","x":"A"'));
    for (const escape of ['\\x', '\\u12', '\\ud800', '\\/', '\\uD83D\\uDE00', '\t', '\u2028'])
      await check(`string ${JSON.stringify(escape)}`, withFields(`,"s":"${escape}"`));
  });

  it('reads the bytes as the reference does: a BOM kept, bad UTF-8 as U+FFFD, white space, 64 levels and no more', async () => {
    await check('a BOM', `\ufeff${logEntry(1)}`);
    await check('white space around', ` \n${logEntry(1)}\t\r\n`);
    for (const bad of [[0xff], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
      await check(`bytes ${bad}`, Buffer.concat([Buffer.from(withFields(',"s":"')), Buffer.from(bad), Buffer.from('"}')]));
    }
    for (const depth of [62, 63, 64, 65]) await check(`depth ${depth + 1}`, withFields(`,"x":${'['.repeat(depth)}${']'.repeat(depth)}`));
    for (const n of ['123456789012345678901234567890', '1e400', '-0', '0.1000000000000000000001', '1E2', '-1.50']) {
      const verdict = await check(`number ${n}`, withFields(`,"n":${n}`));
      expect(verdict).toMatchObject({ ok: true, entry: withFields(`,"n":${n}`) });
    }
  });

  it('agrees on any JSON value in a log, and on token soup', async () => {
    await fc.assert(
      fc.asyncProperty(fc.json({ maxDepth: 4 }), async (json) => {
        const verdict = await check('json', withFields(`,"v":${json}`));
        expect(verdict.ok).toBe(true);
      }),
      { numRuns: 150 },
    );
    const token = fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', '1.0', '-', 'e5', ' ', 'null', '"seq"', '"accountId"', '"default"', '\\', '\\u0041');
    await fc.assert(
      fc.asyncProperty(fc.array(token, { maxLength: 12 }), fc.boolean(), async (tokens, framed) => {
        const soup = tokens.join('');
        await check(`soup ${soup}`, framed ? withFields(soup) : soup, { sameReason: false });
      }),
      { numRuns: 300 },
    );
    expect(compare.checked).toBeGreaterThan(450);
  });
});

describe('the laid-out entry', () => {
  const { layOut } = loadPageVerifier();
  /** The text with the white space outside strings taken out again. */
  const squeezed = (text: string) => text.replace(/("(?:[^"\\]|\\.)*")|\s+/g, (_, string: string | undefined) => string ?? '');

  it('keeps every token as written: numbers digit for digit, strings escape for escape', () => {
    const entry = logEntry(1, { input: '{"big":123456789012345678901234567890,"e":1E2,"s":"a \\" b\\\\","empty":{},"list":[]}' });
    const laidOut = layOut(entry);
    expect(laidOut).toContain('"big": 123456789012345678901234567890');
    expect(laidOut).toContain('"s": "a \\" b\\\\"');
    expect(laidOut).toContain('"empty": {}');
    expect(laidOut.split('\n').length).toBeGreaterThan(10);
    expect(squeezed(laidOut)).toBe(entry);
    fc.assert(fc.property(fc.json(), (json) => squeezed(layOut(json)) === json));
  });
});
