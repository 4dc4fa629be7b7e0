import { stringifyJson } from '#libs/common';
import { type AcceptedLog, canonicalLog, chainHash, GENESIS_HASH } from './chain.js';
import { keyIdOf, newSigningKeyPem, publicKeyPem, readPublicKey, readSigningKey, signCheckpoint, signRecord } from './checkpoint-signing.js';
import { CSV_COLUMNS, csvCell, exportCsvRow } from './export-csv.js';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportedCheckpoint, type ExportEnd, type ExportLine, uploadSummary } from './export-format.js';
import { canonicalReceipt, type UploadReceipt } from './receipt.js';
import { ExportVerifier, type VerifyOptions, type VerifyReport } from './verify-export.js';

const key = readSigningKey(newSigningKeyPem());
const publicKey = readPublicKey(publicKeyPem(key));
const WHOLE = new Date(0).toISOString();
const at = (i: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, i)).toISOString();

/** A chain of n logs, each uploaded on its first attempt (receipt i is log i's). */
function makeChain(n: number) {
  const logs: Array<{ log: AcceptedLog; prevHash: string; hash: string }> = [];
  const receipts: Array<{ receipt: UploadReceipt; prevHash: string; hash: string }> = [];
  for (let i = 1; i <= n; i++) {
    const log: AcceptedLog = {
      accountId: 'a',
      seq: String(i),
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      receivedAt: at(i),
      agentKeyId: 'k',
      orderId: String(737185556881998000n + BigInt(i)),
      stage: i === 2 ? '=HYPERLINK("http://x.example","y")' : 'decision',
      model: i === 3 ? "'-1" : 'm',
      input: { i },
      output: {},
      explanation: 'e',
    };
    const prevHash = logs.at(-1)?.hash ?? GENESIS_HASH;
    logs.push({ log, prevHash, hash: chainHash(prevHash, canonicalLog(log)) });
    const receipt: UploadReceipt = {
      accountId: 'a',
      seq: String(i),
      logId: log.id,
      logSeq: String(i),
      logHash: logs.at(-1)!.hash,
      target: 'simulator',
      url: 'http://sim/upload',
      startedAt: at(i),
      finishedAt: at(i),
      outcome: 'uploaded',
      httpStatus: 200,
      exchangeCode: '00000',
      exchangeMessage: 'success',
      status: 'uploaded',
    };
    const prevReceipt = receipts.at(-1)?.hash ?? GENESIS_HASH;
    receipts.push({ receipt, prevHash: prevReceipt, hash: chainHash(prevReceipt, canonicalReceipt(receipt)) });
  }
  return { logs, receipts };
}

const chain = makeChain(8);

function checkpoint(seq: number, role: ExportedCheckpoint['chain'] = 'logs'): ExportedCheckpoint {
  const statement = {
    accountId: 'a',
    seq: String(seq),
    hash: chain.logs[seq - 1].hash,
    receiptSeq: String(seq),
    receiptHash: chain.receipts[seq - 1].hash,
    at: at(seq),
  };
  return { type: 'checkpoint', chain: role, ...statement, signature: signCheckpoint(key, statement), keyId: keyIdOf(key) };
}

/** The export of logs (and receipts) from..8, anchored at `anchor` if given, with a signed end line. */
function exportOf({ from = 1, anchor, window = WHOLE }: { from?: number; anchor?: number; window?: string } = {}): ExportLine[] {
  const lines: ExportLine[] = [
    {
      type: 'header',
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      accountId: 'a',
      from: window,
      to: at(99),
      generatedAt: at(99),
      hash: '',
      publicKey: null,
      keyId: null,
    },
  ];
  if (anchor) lines.push(checkpoint(anchor));
  const logs = chain.logs.slice(from - 1);
  for (const { log, prevHash, hash } of logs) {
    lines.push({ type: 'log', seq: log.seq, prevHash, hash, log, upload: uploadSummary(chain.receipts[Number(log.seq) - 1].receipt), orders: [] });
    if (log.seq === '6') lines.push(checkpoint(6));
  }
  if (anchor) lines.push(checkpoint(anchor, 'receipts'));
  const receipts = chain.receipts.slice(from - 1);
  for (const r of receipts) {
    lines.push({ type: 'receipt', seq: r.receipt.seq, ...r });
    if (r.receipt.seq === '6') lines.push(checkpoint(6, 'receipts'));
  }
  const end: ExportEnd = {
    type: 'end',
    accountId: 'a',
    from: window,
    to: at(99),
    generatedAt: at(99),
    rows: logs.length,
    firstSeq: logs[0].log.seq,
    lastSeq: '8',
    lastHash: chain.logs[7].hash,
    receipts: receipts.length,
    firstReceiptSeq: receipts[0].receipt.seq,
    lastReceiptSeq: '8',
    lastReceiptHash: chain.receipts[7].hash,
    checkpoints: lines.filter((l) => l.type === 'checkpoint').length,
    keyId: keyIdOf(key),
  };
  return [...lines, { ...end, signature: signRecord(key, end) }];
}

const jsonl = (lines: ExportLine[]) => lines.map((l) => stringifyJson(l)).join('\n');
const csv = (lines: ExportLine[]) => `${CSV_COLUMNS.map(csvCell).join(',')}\n${lines.map(exportCsvRow).join('')}`;
function verify(text: string, options: VerifyOptions = { publicKey }): VerifyReport {
  const verifier = new ExportVerifier(options);
  for (const line of text.split('\n')) if (!verifier.add(line)) break;
  return verifier.finish();
}
const broken = (report: VerifyReport) => report.broken?.reason;

describe('ExportVerifier', () => {
  it('accepts a whole export, JSONL or CSV (also with CRLF line ends), anchored at the genesis, signatures checked', () => {
    for (const text of [jsonl(exportOf()), csv(exportOf()), csv(exportOf()).replaceAll('\n', '\r\n')]) {
      expect(verify(text)).toMatchObject({
        ok: true,
        rows: 8,
        firstSeq: '1',
        lastSeq: '8',
        logStart: 'genesis',
        end: 'signed',
        partial: undefined,
        receipts: { count: 8, firstSeq: '1', lastSeq: '8', start: 'genesis' },
        checkpoints: { verified: 2, unchecked: 0 },
      });
    }
    expect(verify(jsonl(exportOf()), {})).toMatchObject({ ok: true, end: 'unchecked', checkpoints: { verified: 0, unchecked: 2 } });
  });

  it('fails an export of the whole chain whose first links are gone, and calls a window without an anchor partial', () => {
    expect(broken(verify(jsonl(exportOf({ from: 3 }))))).toBe('the export covers the chain from its start, but its first log is seq 3: logs 1..2 are missing');
    const window = verify(jsonl(exportOf({ from: 3, window: at(3) })));
    expect(window).toMatchObject({ ok: true, partial: 'starts at seq 3, not anchored', logStart: 'not anchored' });
  });

  it('accepts a window anchored by a signed checkpoint, and calls it partial when the signature cannot be checked', () => {
    const text = jsonl(exportOf({ from: 5, anchor: 4, window: at(5) }));
    expect(verify(text)).toMatchObject({ ok: true, partial: undefined, logStart: 'signed checkpoint', receipts: { start: 'signed checkpoint' } });
    expect(verify(text, {})).toMatchObject({ ok: true, partial: 'starts at seq 5 after a checkpoint whose signature was not checked (give --pubkey)' });
    expect(broken(verify(jsonl(exportOf({ from: 6, anchor: 4, window: at(5) }))))).toBe('seq 6 follows the checkpoint at seq 4: logs are missing');
  });

  it('fails an export cut short, or whose end line does not count what it holds or is not signed by the key', () => {
    const lines = exportOf();
    expect(broken(verify(jsonl(lines.slice(0, -1))))).toBe('the export has no end line: it was cut short');
    expect(broken(verify(csv(lines.slice(0, -4))))).toBe('the export has no end line: it was cut short');
    const end = lines.at(-1) as ExportEnd;
    expect(broken(verify(jsonl([...lines.slice(0, -1), { ...end, rows: 7 }])))).toBe("the end line's rows is 7, the export holds 8: lines were cut or added");
    const { signature: _, ...unsigned } = end;
    expect(broken(verify(jsonl([...lines.slice(0, -1), unsigned])))).toBe(
      'the end line is not signed, though a public key was given: it may have been rewritten',
    );
    expect(broken(verify(jsonl([...lines.slice(0, -1), { ...end, generatedAt: at(98) }])))).toBe('the end line is not signed by the given key');
  });

  it('fails a changed receipt, and a log line whose upload does not agree with the receipts', () => {
    const lines = exportOf();
    const at3 = (type: string) => lines.findIndex((l) => l.type === type && (l as { seq: string }).seq === '3');
    const edit = (i: number, change: (line: any) => void) => {
      const copy = structuredClone(lines);
      change(copy[i]);
      return verify(jsonl(copy));
    };
    expect(broken(edit(at3('receipt'), (l) => (l.receipt.exchangeCode = '-1')))).toBe(
      'the hash does not match the receipt: the receipt, or the log it names, was changed after it was recorded',
    );
    expect(broken(edit(at3('log'), (l) => (l.upload.status = 'failed')))).toBe('the upload status on the line of log seq 3 differs from its receipt 3');
    expect(broken(edit(at3('log'), (l) => (l.upload = uploadSummary(undefined))))).toBe('the line of log seq 3 names no receipt, but receipt 3 is for it');
    expect(broken(edit(at3('log'), (l) => (l.upload.receiptSeq = '9')))).toBe('the line of log seq 3 names receipt 9, which the export does not hold');
  });

  it('fails a CSV cell changed beside the hashed log, and reads formula-guarded cells back as the values hashed', () => {
    const text = csv(exportOf());
    expect(text).toContain('"\'=HYPERLINK(""http://x.example"",""y"")"');
    expect(text).toContain(`"''-1"`);
    expect(broken(verify(text.replace('x.example', 'z.example')))).toBe('the stage cell differs from the log it shows: the cell was changed');
    expect(broken(verify(text.replace('"737185556881998004"', '"737185556881998005"')))).toBe(
      'the order_id cell differs from the log it shows: the cell was changed',
    );
  });

  it('refuses an export of an older version, which has no receipts or signed end line', () => {
    const [header, ...rest] = exportOf();
    expect(broken(verify(jsonl([{ ...header, version: 1 } as ExportLine, ...rest])))).toBe('not a version 2 export (version 1): export it again');
  });
});
