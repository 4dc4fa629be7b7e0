import { VerdictComparison } from './testing/compare.js';
import { logEntry, noteKey, ProofLog, witnessKey } from './testing/proof-log.js';

// The page's script (the bytes the browser runs) against verifyProofFile, on proofs made with libs/signed-note and
// libs/merkle-tree: the same verdict and the same reason for every proof, valid or changed.

const ORIGIN = 'gw.example/default';
const RECEIPTS = `receipt-chain 0 ${'0'.repeat(64)}`;
const gateway = noteKey('gw.example');
const w1 = witnessKey('witness1.example', 1_767_225_600n);
const w2 = witnessKey('witness2.example', 1_767_225_660n);
const w3 = witnessKey('witness3.example');
const log = new ProofLog(ORIGIN);
for (let seq = 1; seq <= 17; seq++) log.add(logEntry(seq));

/** The proof's lines; `hashes` and `note` are where the proof hashes and the checkpoint begin. */
function layout(file: string): { lines: string[]; hashes: number[]; note: number; signatures: number[] } {
  const lines = file.split('\n');
  const index = lines.findIndex((line) => line.startsWith('index '));
  const blank = lines.indexOf('', index + 1);
  const noteEnd = lines.indexOf('', blank + 1);
  const signatures = lines.map((_, i) => i).filter((i) => i > noteEnd && lines[i] !== '');
  return { lines, hashes: lines.map((_, i) => i).filter((i) => i > index && i < blank), note: blank + 1, signatures };
}
const withLine = (file: string, at: number, line: string): string => file.split('\n').with(at, line).join('\n');
function flipped(base64: string, at: number): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[at] ^= 0x01;
  return bytes.toString('base64');
}

describe("the verifier page's script reaches verifyProofFile's verdicts", () => {
  const compare = new VerdictComparison();
  let file = '';
  let cosigned = '';
  beforeAll(async () => {
    file = await log.proof(6, { size: 13, signers: [gateway.signer], extensions: [RECEIPTS] });
    cosigned = await log.proof(6, { size: 13, signers: [gateway.signer, w1.cosigner, w2.cosigner], extensions: [RECEIPTS] });
  });
  afterEach(() => expect(compare.mismatches.splice(0)).toEqual([]));

  it('verifies every index of every tree of 1 to 17 logs, and shows what the reference does', async () => {
    for (let size = 1; size <= 17; size++) {
      for (let index = 0; index < size; index++) {
        const verdict = await compare.check(`index ${index} of ${size}`, await log.proof(index, { size, signers: [gateway.signer] }), { key: gateway.vkey });
        expect(verdict).toMatchObject({ ok: true, origin: ORIGIN, size: String(size), index: String(index) });
      }
    }
    const verdict = await compare.check('with extensions', file, { key: gateway.vkey });
    expect(verdict).toEqual({ ok: true, origin: ORIGIN, size: '13', index: '6', entry: logEntry(7), cosignatures: [], extensions: [RECEIPTS] });
  });

  it('refuses a proof with any byte of a proof hash, the root, the signature or the entry flipped', async () => {
    const { lines, hashes, note, signatures } = layout(file);
    expect(hashes.length).toBeGreaterThanOrEqual(4);
    for (const at of [...hashes, note + 2]) {
      for (let byte = 0; byte < 32; byte++) await compare.check(`line ${at} byte ${byte}`, withLine(file, at, flipped(lines[at], byte)), { key: gateway.vkey });
    }
    const line = lines[signatures[0]];
    const [prefix, signature] = [line.slice(0, line.lastIndexOf(' ') + 1), line.slice(line.lastIndexOf(' ') + 1)];
    for (let byte = 0; byte < 68; byte++) {
      await compare.check(`signature byte ${byte}`, withLine(file, signatures[0], prefix + flipped(signature, byte)), { key: gateway.vkey });
    }
    const extra = lines[1].slice('extra '.length);
    for (let byte = 0; byte < Buffer.from(extra, 'base64').length; byte++) {
      const verdict = await compare.check(`entry byte ${byte}`, withLine(file, 1, `extra ${flipped(extra, byte)}`), { key: gateway.vkey });
      expect(verdict.ok).toBe(false);
    }
    expect(compare.checked).toBeGreaterThan(600);
  });

  it('refuses a proof whose index was changed, or whose extra line was replaced, changed or left out', async () => {
    const { lines } = layout(file);
    const at = lines.findIndex((line) => line.startsWith('index '));
    const indexes = ['0', '5', '7', '12', '13', '14', String(2n ** 64n - 1n), String(2n ** 64n), '06', '-1', '+6', ' 6', '6 ', '', '6.0', '0x6'];
    for (const index of indexes) await compare.check(`index ${JSON.stringify(index)}`, withLine(file, at, `index ${index}`), { key: gateway.vkey });
    await compare.check('no index line', withLine(file, at, 'Index 6'), { key: gateway.vkey });
    const other = Buffer.from(logEntry(8)).toString('base64');
    for (const extra of [`extra ${other}`, 'extra ', 'extra', 'extra AA==', 'extra AB==', 'extra QUJD\t', `extra  ${other}`, `extra ${other.slice(0, -1)}`]) {
      await compare.check(`extra line ${JSON.stringify(extra.slice(0, 12))}`, withLine(file, 1, extra), { key: gateway.vkey });
    }
    await compare.check('no extra line', await log.proof(6, { size: 13, signers: [gateway.signer], extra: null }), { key: gateway.vkey });
  });

  it('refuses a wrong or malformed key, and an origin other than the one expected', async () => {
    const [name, id, ...parts] = gateway.vkey.split('+');
    const material = parts.join('+'); // base64 may hold '+'
    const bytes = Buffer.from(material, 'base64');
    const keys = [
      noteKey('gw.example').vkey,
      noteKey('other.example').vkey,
      w1.vkey,
      w1.noteVkey,
      '',
      name,
      `${name}+${id}`,
      `${name}+${id.toUpperCase()}+${material}`,
      `${name}+${id}+${material}\n`,
      ` ${gateway.vkey}`,
      `${name}+00000000+${material}`,
      `${name}+${id}+${Buffer.concat([Buffer.of(2), bytes.subarray(1)]).toString('base64')}`,
      `${name}+${id}+${bytes.subarray(0, 32).toString('base64')}`,
      `${name}+${id}+`,
      `gw example+${id}+${material}`,
      `+${id}+${material}`,
      `${name}+${id}+${material.replace(/=*$/, '')}`,
    ];
    for (const key of keys) await compare.check(`key ${JSON.stringify(key.slice(0, 30))}`, file, { key });
    for (const origin of [ORIGIN, 'gw.example/other', 'gw.example', '']) await compare.check(`origin ${origin}`, file, { key: gateway.vkey, origin });
  });

  it("counts the witnesses' cosignatures as the policy asks, by cosignature key or by note key", async () => {
    const policies = [
      {},
      { witnesses: [w1.vkey, w2.vkey] },
      { witnesses: [w2.noteVkey, w1.noteVkey] },
      { witnesses: [w1.vkey, w3.vkey] },
      { witnesses: [w1.vkey, w3.vkey], minCosignatures: 1 },
      { witnesses: [w1.vkey, w2.vkey], minCosignatures: 3 },
      { witnesses: [w3.vkey], minCosignatures: 0 },
      { witnesses: [], minCosignatures: 1 },
      { witnesses: [w1.vkey, w1.vkey] },
      { witnesses: [w1.vkey, w1.noteVkey] },
      { witnesses: [gateway.vkey] },
      { witnesses: ['not a key'] },
    ];
    for (const policy of policies) await compare.check(`cosigned, ${JSON.stringify(policy).slice(0, 60)}`, cosigned, { key: gateway.vkey, ...policy });
    const verdict = await compare.check('both witnesses', cosigned, { key: gateway.vkey, witnesses: [w1.vkey, w2.vkey] });
    expect(verdict).toMatchObject({
      ok: true,
      cosignatures: [
        { name: 'witness1.example', timestamp: '1767225600' },
        { name: 'witness2.example', timestamp: '1767225660' },
      ],
    });
    await compare.check('not cosigned, witness given', file, { key: gateway.vkey, witnesses: [w1.vkey] });
  });

  it('refuses a cosignature with any byte flipped, a signature line twice, and a note the gateway did not sign', async () => {
    const { lines, signatures } = layout(cosigned);
    const [dash, name, signature] = lines[signatures[1]].split(' ');
    for (let byte = 0; byte < 76; byte++) {
      const changed = withLine(cosigned, signatures[1], `${dash} ${name} ${flipped(signature, byte)}`);
      await compare.check(`cosignature byte ${byte}`, changed, { key: gateway.vkey, witnesses: [w1.vkey, w2.vkey] });
      if (byte % 15 === 0) await compare.check(`cosignature byte ${byte}, witness not given`, changed, { key: gateway.vkey, witnesses: [w2.vkey] });
    }
    const twice = (at: number) => cosigned.replace(`${lines[at]}\n`, `${lines[at]}\n${lines[at]}\n`);
    await compare.check('the log signature twice', twice(signatures[0]), { key: gateway.vkey });
    await compare.check('a cosignature twice', twice(signatures[1]), { key: gateway.vkey, witnesses: [w1.vkey] });
    await compare.check('an unknown cosignature twice', twice(signatures[1]), { key: gateway.vkey });
    const unsigned = cosigned.replace(`${lines[signatures[0]]}\n`, '');
    for (const witnesses of [[], [w1.vkey], [w1.vkey, w2.vkey]])
      await compare.check(`witnesses only (${witnesses.length})`, unsigned, { key: gateway.vkey, witnesses });
    await compare.check('a line of an unknown key first', cosigned.replace('\n\n— ', `\n\n— stranger.example AAAAAAAAAAA=\n— `), { key: gateway.vkey });
  });

  it('answers every cut of a proof file, and garbage, with the reference words', async () => {
    const bytes = Buffer.from(cosigned);
    for (let length = 0; length < bytes.length; length++) {
      await compare.check(`first ${length} bytes`, bytes.subarray(0, length), { key: gateway.vkey, witnesses: [w1.vkey] });
    }
    const garbage: Array<[string, Uint8Array | string]> = [
      ['10 MB of text', Buffer.alloc(10 << 20, 'a')],
      ['just over 2 MiB', Buffer.alloc((2 << 20) + 1, 0x0a)],
      ['non-UTF-8', Buffer.concat([Buffer.from('c2sp.org/tlog-proof@v1\n'), Buffer.of(0xc3, 0x28), Buffer.from('\n')])],
      ['a BOM', `\ufeff${file}`],
      ['CRLF', file.replaceAll('\n', '\r\n')],
      ['1000 hash lines', file.replace('index 6\n', `index 6\n${`${Buffer.alloc(32, 7).toString('base64')}\n`.repeat(1000)}`)],
      ['a 31-byte hash', file.replace('index 6\n', `index 6\n${Buffer.alloc(31).toString('base64')}\n`)],
      ['101 signature lines', file + '— x.example AAAAAAAAAAA=\n'.repeat(101)],
      ['a NUL in the note', file.replace(ORIGIN, `${ORIGIN}\u0000`)],
      ['no final newline', file.slice(0, -1)],
      ['empty', ''],
      ['header only', 'c2sp.org/tlog-proof@v1\n'],
      ['a checkpoint of two lines', file.replace(/\n\n(.*)\n13\n/, '\n\n$1\n')],
      ['a size with a leading zero', file.replace(/\n13\n/, '\n013\n')],
      ['an empty extension line', file.replace(`${RECEIPTS}\n`, `${RECEIPTS}\n\n\n`)],
      ['an oversized note', file.replace(RECEIPTS, 'x'.repeat(1 << 20))],
    ];
    for (const [label, input] of garbage) {
      const started = performance.now();
      const verdict = await compare.check(label, input, { key: gateway.vkey });
      expect({ label, ok: verdict.ok, fast: performance.now() - started < 2000 }).toEqual({ label, ok: false, fast: true });
    }
  });
});
