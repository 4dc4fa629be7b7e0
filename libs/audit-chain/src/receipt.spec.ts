import fc from 'fast-check';
import { canonicalJson } from './canonical-json.js';
import { csvCell, parseCsvRecord, readCsvCell } from './export-csv.js';
import { canonicalReceipt, statusAgrees, storableText } from './receipt.js';

describe('upload receipts', () => {
  it('writes a receipt field by field exactly as canonicalJson writes the whole object', () => {
    const text = fc.string({ unit: 'binary' });
    const seq = fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String);
    const receipts = fc.record({
      accountId: text,
      seq,
      logId: fc.uuid(),
      logSeq: fc.option(seq),
      logHash: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/)),
      target: text,
      url: text,
      startedAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      finishedAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      outcome: text,
      httpStatus: fc.option(fc.integer({ min: 100, max: 599 })),
      exchangeCode: fc.option(text),
      exchangeMessage: fc.option(text),
      status: text,
    });
    fc.assert(
      fc.property(receipts, (r) => {
        expect(canonicalReceipt(r)).toBe(canonicalJson({ ...r, seq: BigInt(r.seq), logSeq: r.logSeq === null ? null : BigInt(r.logSeq) }));
      }),
      { numRuns: 500 },
    );
  });

  it('binds uploaded both ways and failed one way to the last receipt', () => {
    expect(statusAgrees('uploaded', 'uploaded')).toBe(true);
    expect(statusAgrees('failed', 'uploaded')).toBe(false);
    expect(statusAgrees('uploaded', 'retrying')).toBe(false);
    expect(statusAgrees('queued', 'uploaded')).toBe(false);
    expect(statusAgrees('failed', 'failed')).toBe(true);
    expect(statusAgrees('failed', null)).toBe(false);
    // An admin retry sends a failed log back to the queue, and a paused account's claim goes back to retrying, with no receipt.
    expect(statusAgrees('queued', 'failed')).toBe(true);
    expect(statusAgrees('retrying', null)).toBe(true);
    expect(statusAgrees('uploading', 'retrying')).toBe(true);
  });

  it('makes text storable as PostgreSQL will store it', () => {
    expect(storableText('a\u0000b\ud800c')).toBe('a\uFFFDb\uFFFDc');
    expect(storableText('é 😀')).toBe('é 😀');
  });
});

describe('CSV cells', () => {
  it('quote every value, guard formula starts, and read back as the value for any text', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 5 }), (values) => {
        const record = values.map(csvCell).join(',');
        const cells = parseCsvRecord(record);
        expect(cells.map(readCsvCell)).toEqual(values);
        for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }),
      { numRuns: 1_000 },
    );
    expect(csvCell('=1+2')).toBe(`"'=1+2"`);
    expect(csvCell("'x")).toBe(`"''x"`);
    expect(csvCell(null)).toBe('""');
  });
});
