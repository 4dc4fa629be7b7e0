import type { KeyObject } from 'node:crypto';
import { parseJson } from '#libs/common';
import { type AcceptedLog, canonicalLog, chainHash, GENESIS_HASH } from './chain.js';
import { type CheckpointStatement, keyIdOf, verifyCheckpoint } from './checkpoint-signing.js';

export interface VerifyOptions {
  /** A head the team published earlier: the chain must contain a log with this hash. */
  head?: string;
  /** Checks every checkpoint's signature with this key; without it signatures are reported as unchecked. */
  publicKey?: KeyObject;
}

export interface VerifyReport {
  ok: boolean;
  /** Logs read. */
  rows: number;
  firstSeq?: string;
  lastSeq?: string;
  lastHash?: string;
  checkpoints: { verified: number; unchecked: number };
  headFound?: boolean;
  /** The first broken link: where, and which rule it broke. */
  broken?: { line: number; seq?: string; reason: string };
}

/**
 * Recomputes an export's chain line by line, holding only the previous link: each log's hash from its canonical form,
 * each prevHash against the previous log, seq without gaps, every checkpoint against the chain (and its signature,
 * given the key), the end line's count, and the published head if given. Stops at the first broken link.
 */
export class ExportVerifier {
  private line = 0;
  private previous?: { seq: bigint; hash: string };
  private readonly report: VerifyReport = { ok: true, rows: 0, checkpoints: { verified: 0, unchecked: 0 } };
  private ended = false;
  private csvHeader?: string[];
  /** A CSV record whose quoted cell spans lines, until its closing quote. */
  private csvPending = '';

  constructor(private readonly options: VerifyOptions = {}) {
    if (options.head) this.report.headFound = false;
  }

  /** Feeds one line of a JSONL or CSV export. Returns false once the chain is broken (stop reading). */
  add(text: string): boolean {
    this.line++;
    if (!this.report.ok || text.trim() === '') return this.report.ok;
    try {
      if (this.line === 1 && text.startsWith('seq,')) this.csvHeader = text.split(',');
      else if (this.csvHeader) {
        this.csvPending = this.csvPending ? `${this.csvPending}\n${text}` : text;
        // An odd number of quotes so far means a quoted cell is still open: the record goes on on the next line.
        if ((this.csvPending.match(/"/g)?.length ?? 0) % 2 === 1) return true;
        const record = this.csvPending;
        this.csvPending = '';
        this.addCsv(record);
      }
      else this.addJson(parseJson(text) as Record<string, unknown>);
    } catch (error) {
      this.fail(`unreadable line: ${(error as Error).message}`);
    }
    return this.report.ok;
  }

  finish(): VerifyReport {
    if (this.report.ok && !this.csvHeader && !this.ended) this.fail('the export has no end line: it was cut short');
    if (this.report.ok && this.options.head && !this.report.headFound) this.fail(`no log in the export has the published head hash ${this.options.head}`);
    return this.report;
  }

  private addJson(entry: Record<string, unknown>): void {
    if (this.ended) return this.fail('lines after the end line');
    switch (entry.type) {
      case 'header':
        if (this.line !== 1) return this.fail('a header that is not the first line');
        return;
      case 'log':
        return this.addLog(String(entry.seq ?? ''), entry.prevHash as string | null, entry.hash as string | null, canonicalLog(entry.log as AcceptedLog), (entry.log as AcceptedLog).seq);
      case 'checkpoint':
        return this.addCheckpoint(entry as unknown as CheckpointStatement & { signature: string; keyId: string });
      case 'end':
        this.ended = true;
        if (Number(entry.rows) !== this.report.rows) return this.fail(`the end line counts ${String(entry.rows)} logs, the export holds ${this.report.rows}`);
        return;
      default:
        return this.fail(`unknown line type ${String(entry.type)}`);
    }
  }

  private addCsv(text: string): void {
    const cells = parseCsvLine(text);
    const at = (name: string) => cells[this.csvHeader!.indexOf(name)] ?? '';
    const canonical = at('log_canonical');
    const logSeq = String((parseJson(canonical) as { seq: unknown }).seq);
    this.addLog(at('seq'), at('prev_hash') || null, at('hash') || null, canonical, logSeq);
  }

  private addLog(seqText: string, prevHash: string | null, hash: string | null, canonical: string, logSeq: string): void {
    this.report.rows++;
    if (!/^\d+$/.test(seqText) || !prevHash || !hash) return this.fail('a log outside the chain (no seq or hash): it was not accepted through the gateway');
    const seq = BigInt(seqText);
    if (logSeq !== seqText) return this.fail(`the log's own seq ${logSeq} differs from its line's seq`, seqText);
    if (this.previous) {
      if (seq !== this.previous.seq + 1n) return this.fail(`seq ${seq} follows seq ${this.previous.seq}: ${seq > this.previous.seq ? 'logs are missing' : 'out of order'}`, seqText);
      if (prevHash !== this.previous.hash) return this.fail(`prevHash does not match the hash of seq ${this.previous.seq}`, seqText);
    } else {
      this.report.firstSeq = seqText;
      if (seq === 1n && prevHash !== GENESIS_HASH) return this.fail('the first log of the chain does not start from the genesis hash', seqText);
    }
    if (chainHash(prevHash, canonical) !== hash) return this.fail('the hash does not match the log: the log was changed after it was accepted', seqText);
    this.previous = { seq, hash };
    this.report.lastSeq = seqText;
    this.report.lastHash = hash;
    if (hash === this.options.head) this.report.headFound = true;
  }

  private addCheckpoint(checkpoint: CheckpointStatement & { signature: string; keyId: string }): void {
    if (!this.previous || this.previous.seq.toString() !== checkpoint.seq || this.previous.hash !== checkpoint.hash) {
      return this.fail(`checkpoint at seq ${checkpoint.seq} states hash ${checkpoint.hash}, which is not the chain's`, checkpoint.seq);
    }
    const key = this.options.publicKey;
    if (!key) {
      this.report.checkpoints.unchecked++;
      return;
    }
    if (checkpoint.keyId !== keyIdOf(key) || !verifyCheckpoint(key, checkpoint, checkpoint.signature)) {
      return this.fail(`checkpoint at seq ${checkpoint.seq} is not signed by the given key`, checkpoint.seq);
    }
    this.report.checkpoints.verified++;
  }

  private fail(reason: string, seq?: string): void {
    this.report.ok = false;
    this.report.broken = { line: this.line, seq, reason };
  }
}

/** One RFC 4180 record (quoted cells may hold commas, quotes and line breaks). */
export function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') cells.push(cell), (cell = '');
    else cell += c;
  }
  cells.push(cell);
  return cells;
}
