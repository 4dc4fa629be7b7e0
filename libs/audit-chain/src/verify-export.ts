import type { KeyObject } from 'node:crypto';
import { parseJson } from '#libs/common';
import { canonicalLog } from './chain.js';
import { type ChainStart, ChainWalker } from './chain-walker.js';
import { keyIdOf, verifyCheckpoint, verifyRecord } from './checkpoint-signing.js';
import { csvRecordComplete, parseCsvRecord } from './export-csv.js';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportedCheckpoint, type ExportEnd, type ExportHeader, type ExportLine } from './export-format.js';
import { canonicalReceipt } from './receipt.js';
import { UploadClaims } from './upload-claims.js';
import { type ExportInput, readCsvRecord } from './verify-csv.js';

export interface VerifyOptions {
  /** A head the team published earlier: the chain must contain a log with this hash. */
  head?: string;
  /** Checks every signature (checkpoints, the end line) with this key; without it they are reported as unchecked. */
  publicKey?: KeyObject;
}

export interface ChainReport {
  count: number;
  firstSeq?: string;
  lastSeq?: string;
  lastHash?: string;
  /** How its start is proven. */
  start?: ChainStart;
}

export interface VerifyReport {
  ok: boolean;
  /** Log lines read. */
  rows: number;
  firstSeq?: string;
  lastSeq?: string;
  lastHash?: string;
  logStart?: ChainStart;
  receipts: ChainReport;
  checkpoints: { verified: number; unchecked: number };
  /** The end line's signature: verified with the given key, not checked (no key given), or absent. */
  end?: 'signed' | 'unchecked' | 'unsigned';
  headFound?: boolean;
  /** Why the export is not whole though nothing in it is broken: a chain whose start no verified checkpoint proves. */
  partial?: string;
  /** The first broken link: where, and which rule it broke. */
  broken?: { line: number; seq?: string; reason: string };
}

/**
 * Recomputes an export line by line, holding only the previous link of each chain (and 24 bytes per log for the upload
 * cross-check): the log chain, then the receipt chain, each from its start (seq 1 from the genesis hash, or a
 * checkpoint before its first link), every checkpoint against its chain and (given the key) its signature, each log
 * line's upload status against the receipts, the end line against what was read (and its signature), and the
 * published head if given. Stops at the first broken link. A JSONL and a CSV export are read alike.
 */
export class ExportVerifier {
  private line = 0;
  private readonly report: VerifyReport = { ok: true, rows: 0, receipts: { count: 0 }, checkpoints: { verified: 0, unchecked: 0 } };
  private readonly logs = new ChainWalker({ item: 'log', changed: 'the log was changed after it was accepted' });
  private readonly receipts = new ChainWalker({ item: 'receipt', changed: 'the receipt, or the log it names, was changed after it was recorded' });
  private readonly uploads = new UploadClaims();
  private header?: ExportHeader;
  private ended = false;
  private inReceipts = false;
  private checkpointLines = 0;
  private csvColumns?: Map<string, number>;
  /** A CSV record whose quoted cell spans lines, until its closing quote. */
  private csvPending = '';

  constructor(private readonly options: VerifyOptions = {}) {
    if (options.head) this.report.headFound = false;
  }

  /**
   * Feeds one line of a JSONL or CSV export, without its line feed; `unterminated` for text after the last line feed.
   * Returns false once broken (stop reading).
   */
  add(text: string, unterminated = false): boolean {
    this.line++;
    if (!this.report.ok || (text.trim() === '' && !this.csvPending)) return this.report.ok;
    try {
      if (this.line === 1 && /^"?type"?,/.test(text)) this.csvColumns = new Map(parseCsvRecord(text).map((name, i) => [name, i]));
      else if (this.csvColumns) {
        this.csvPending = this.csvPending ? `${this.csvPending}\n${text}` : text;
        if (!csvRecordComplete(this.csvPending)) return true;
        const record = this.csvPending;
        this.csvPending = '';
        const input = readCsvRecord(parseCsvRecord(record), this.csvColumns);
        if (typeof input === 'string') this.fail(input);
        else this.take(input);
      } else this.take(jsonInput(parseJson(text.endsWith('\r') ? text.slice(0, -1) : text) as ExportLine));
    } catch (error) {
      this.fail(unterminated ? 'the last line is incomplete: the export was cut short' : `unreadable line: ${(error as Error).message}`);
    }
    return this.report.ok;
  }

  finish(): VerifyReport {
    if (this.report.ok && this.csvPending) this.fail('the export ends inside a CSV record: it was cut short');
    if (this.report.ok && !this.ended) this.fail('the export has no end line: it was cut short');
    if (this.report.ok) this.check(this.uploads.finish());
    if (this.report.ok && this.options.head && !this.report.headFound) this.fail(`no log in the export has the published head hash ${this.options.head}`);
    const { report, logs, receipts } = this;
    Object.assign(report, { firstSeq: logs.first?.toString(), lastSeq: logs.last?.seq.toString(), lastHash: logs.last?.hash, logStart: logs.start });
    report.receipts = {
      count: receipts.count,
      firstSeq: receipts.first?.toString(),
      lastSeq: receipts.last?.seq.toString(),
      lastHash: receipts.last?.hash,
      start: receipts.start,
    };
    if (report.ok) report.partial = partialStart('starts', logs) ?? partialStart('receipts start', receipts);
    return report;
  }

  private take(input: ExportInput): void {
    if (this.ended) return this.fail('lines after the end line');
    if (input.type !== 'header' && !this.header) return this.fail('the export has no header line');
    switch (input.type) {
      case 'header':
        if (this.header) return this.fail('a second header line');
        if (input.header.format !== EXPORT_FORMAT || input.header.version !== EXPORT_VERSION) {
          return this.fail(`not a version ${EXPORT_VERSION} export (version ${String(input.header.version)}): export it again`);
        }
        this.header = input.header;
        return;
      case 'log': {
        this.report.rows++;
        if (this.inReceipts) return this.fail('a log line after the receipts', input.seq ?? undefined);
        if (input.seq === null || !/^\d+$/.test(input.seq) || !input.prevHash || !input.hash) {
          return this.fail('a log outside the chain (no seq or hash): it was not accepted through the gateway');
        }
        if (input.logSeq !== input.seq) return this.fail(`the log's own seq ${input.logSeq} differs from its line's seq`, input.seq);
        const seq = BigInt(input.seq);
        if (this.check(this.logs.link(seq, input.prevHash, input.hash, input.canonical) ?? this.wholeChainStart('log', this.logs), input.seq)) return;
        this.uploads.claim(seq, input.hash, input.upload);
        if (input.hash === this.options.head) this.report.headFound = true;
        return;
      }
      case 'receipt': {
        this.inReceipts = true;
        const { seq, prevHash, hash, receipt } = input;
        if (!/^\d+$/.test(seq) || receipt.seq !== seq) return this.fail(`the receipt's own seq ${receipt.seq} differs from its line's seq`, seq);
        if (this.check(this.receipts.link(BigInt(seq), prevHash, hash, input.canonical) ?? this.wholeChainStart('receipt', this.receipts), seq)) return;
        this.check(this.uploads.observe(receipt), seq);
        return;
      }
      case 'checkpoint':
        return this.addCheckpoint(input.checkpoint);
      case 'end':
        this.ended = true;
        return this.addEnd(input.end);
    }
  }

  private addCheckpoint(checkpoint: ExportedCheckpoint): void {
    this.checkpointLines++;
    const receipts = checkpoint.chain === 'receipts';
    if (!receipts && this.inReceipts) return this.fail('a log checkpoint after the receipts', checkpoint.seq);
    this.inReceipts ||= receipts;
    const seq = receipts ? checkpoint.receiptSeq : checkpoint.seq;
    const hash = receipts ? checkpoint.receiptHash : checkpoint.hash;
    if (seq === undefined || hash === undefined || !/^\d+$/.test(seq)) return this.fail('a checkpoint without the seq and hash of its chain');
    const key = this.options.publicKey;
    if (key && (checkpoint.keyId !== keyIdOf(key) || !verifyCheckpoint(key, checkpoint, checkpoint.signature))) {
      return this.fail(`checkpoint at ${receipts ? 'receipt ' : ''}seq ${seq} is not signed by the given key`, seq);
    }
    if (this.check((receipts ? this.receipts : this.logs).checkpoint(BigInt(seq), hash, !!key), seq)) return;
    if (key) this.report.checkpoints.verified++;
    else this.report.checkpoints.unchecked++;
  }

  private addEnd(end: ExportEnd): void {
    const { logs, receipts, header } = this;
    const expected: Partial<ExportEnd> = {
      accountId: header!.accountId,
      from: header!.from,
      to: header!.to,
      rows: this.report.rows,
      firstSeq: logs.first?.toString() ?? null,
      lastSeq: logs.last?.seq.toString() ?? null,
      lastHash: logs.last?.hash ?? null,
      receipts: receipts.count,
      firstReceiptSeq: receipts.first?.toString() ?? null,
      lastReceiptSeq: receipts.last?.seq.toString() ?? null,
      lastReceiptHash: receipts.last?.hash ?? null,
      checkpoints: this.checkpointLines,
    };
    for (const [field, value] of Object.entries(expected)) {
      if (end[field as keyof ExportEnd] !== value)
        return this.fail(`the end line's ${field} is ${String(end[field as keyof ExportEnd])}, the export holds ${String(value)}: lines were cut or added`);
    }
    const { signature, ...signed } = end;
    const key = this.options.publicKey;
    if (!signature) this.report.end = 'unsigned';
    else if (!key) this.report.end = 'unchecked';
    else if (end.keyId === keyIdOf(key) && verifyRecord(key, signed, signature)) this.report.end = 'signed';
    else return this.fail('the end line is not signed by the given key');
    if (key && !signature) this.fail('the end line is not signed, though a public key was given: it may have been rewritten');
  }

  /** An export of the whole chain (no `from`) must start at seq 1: otherwise its first links were deleted. */
  private wholeChainStart(item: string, walker: ChainWalker): string | undefined {
    if (walker.count !== 1 || walker.first === 1n || this.header!.from !== WHOLE_CHAIN_FROM) return undefined;
    return `the export covers the chain from its start, but its first ${item} is seq ${walker.first}: ${item}s 1..${walker.first! - 1n} are missing`;
  }

  /** Fails with the rule broken, if any; says whether it did. */
  private check(reason: string | undefined, seq?: string): boolean {
    if (reason) this.fail(reason, seq);
    return reason !== undefined;
  }

  private fail(reason: string, seq?: string): void {
    this.report.ok = false;
    this.report.broken = { line: this.line, seq, reason };
  }
}

/** The `from` of an export with none given: the chain from its first link. */
const WHOLE_CHAIN_FROM = new Date(0).toISOString();

/** A JSONL line as the verifier reads it (what a CSV record reads to as well). */
function jsonInput(entry: ExportLine): ExportInput {
  switch (entry.type) {
    case 'header':
      return { type: 'header', header: entry };
    case 'log':
      return {
        type: 'log',
        seq: entry.seq,
        prevHash: entry.prevHash,
        hash: entry.hash,
        canonical: canonicalLog(entry.log),
        logSeq: String(entry.log.seq),
        upload: entry.upload,
      };
    case 'receipt':
      return {
        type: 'receipt',
        seq: String(entry.seq),
        prevHash: entry.prevHash,
        hash: entry.hash,
        canonical: canonicalReceipt(entry.receipt),
        receipt: entry.receipt,
      };
    case 'checkpoint':
      return { type: 'checkpoint', checkpoint: entry };
    case 'end':
      return { type: 'end', end: entry };
    default:
      throw new Error(`unknown line type ${String((entry as { type: unknown }).type)}`);
  }
}

/** Why a chain's start is not proven, e.g. "starts at seq 30, not anchored"; undefined when it is. */
function partialStart(starts: string, walker: ChainWalker): string | undefined {
  if (walker.start === 'not anchored') return `${starts} at seq ${walker.first}, not anchored`;
  if (walker.start === 'unchecked checkpoint') return `${starts} at seq ${walker.first} after a checkpoint whose signature was not checked (give --pubkey)`;
  return undefined;
}
