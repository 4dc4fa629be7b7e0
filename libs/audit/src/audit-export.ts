import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import {
  CSV_COLUMNS,
  csvCell,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedCheckpoint,
  type ExportedLog,
  type ExportEnd,
  type ExportLine,
  exportCsvRow,
  signRecord,
  uploadSummary,
} from '#libs/audit-chain';
import { stringifyJson } from '#libs/common';
import { AuditCheckpointRepository, type CheckpointView } from './audit-checkpoint.repository.js';
import { acceptedLog, AuditRows, type LogRow, uploadReceipt } from '#libs/ai-log';
import { EvidenceService } from '#libs/evidence';
import { AuditSigner } from './audit-signer.js';

const PAGE = 500;

export interface ExportWindow {
  accountId: string;
  /** Logs received at or after. */
  from: Date;
  /** Logs received before. */
  to: Date;
}

/** What an export holds: a stretch of each chain, the links before them (seq), and the checkpoints that anchor them. */
interface ExportPlan {
  logs?: { after: bigint; last: bigint; anchor?: CheckpointView };
  receipts?: { after: bigint; last: bigint; anchor?: CheckpointView };
}

/**
 * Streams an account's audit trail, page by page (never the whole window in memory): a header; the logs of the window
 * as one unbroken stretch of the chain, each with its upload so far and a checkpoint line after each log a checkpoint
 * states; the receipt chain from where those logs' receipts begin to the receipt head; and a signed end line that
 * counts and names what came before it (docs/audit.md, "Export and verification").
 *
 * Each stretch proves where it starts: at seq 1 from the genesis hash, or after the latest checkpoint signed before the
 * window (the export then begins with a few logs received before `from`). A window with no such checkpoint is exported
 * as it is, and `audit:verify` calls it partial. Both heads are read once at the start: the logs' upload status is
 * what the receipts up to that head say, so that the two stretches agree however long the export takes.
 */
@Injectable()
export class AuditExport {
  constructor(
    private readonly rows: AuditRows,
    private readonly checkpoints: AuditCheckpointRepository,
    private readonly signer: AuditSigner,
    private readonly evidence: EvidenceService,
  ) {}

  jsonl(window: ExportWindow): Readable {
    return Readable.from(this.render(window, (line) => `${stringifyJson(line)}\n`));
  }

  /** One row per JSONL line; cells are guarded against spreadsheet formulas (see csvCell). */
  csv(window: ExportWindow): Readable {
    return Readable.from(this.render(window, exportCsvRow, `${CSV_COLUMNS.map(csvCell).join(',')}\n`));
  }

  private async *render(window: ExportWindow, format: (line: ExportLine) => string, first?: string): AsyncGenerator<string> {
    if (first) yield first;
    for await (const line of this.lines(window)) yield format(line);
  }

  async *lines(window: ExportWindow): AsyncGenerator<ExportLine> {
    const { accountId } = window;
    const key = this.signer.publicKey();
    const plan = await this.plan(window);
    const header = {
      type: 'header',
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      accountId,
      from: window.from.toISOString(),
      to: window.to.toISOString(),
    } as const;
    yield {
      ...header,
      generatedAt: new Date().toISOString(),
      hash: 'SHA-256(prevHash || canonical JSON), hex; see docs/audit.md',
      publicKey: key?.pem ?? null,
      keyId: key?.keyId ?? null,
    };
    const end: ExportEnd = {
      ...header,
      type: 'end',
      generatedAt: '',
      rows: 0,
      firstSeq: null,
      lastSeq: null,
      lastHash: null,
      receipts: 0,
      firstReceiptSeq: null,
      lastReceiptSeq: null,
      lastReceiptHash: null,
      checkpoints: 0,
    };
    const checkpoint = (view: CheckpointView, chain: ExportedCheckpoint['chain']): ExportedCheckpoint => {
      end.checkpoints++;
      return { type: 'checkpoint', chain, ...view };
    };

    // Logs without a link (inserted around ingest) go first, for verify to name.
    for (let after: { receivedAt: Date; id: string } | undefined; ;) {
      const rows = await this.rows.unlinkedLogs(accountId, window.from, window.to, PAGE, after);
      if (rows.length === 0) break;
      after = { receivedAt: rows.at(-1)!.received_at, id: rows.at(-1)!.id };
      for await (const log of this.enrich(rows)) {
        end.rows++;
        yield log;
      }
    }
    if (plan.logs) {
      const { after, last, anchor } = plan.logs;
      if (anchor) yield checkpoint(anchor, 'logs');
      for (let from = after; from < last;) {
        const rows = await this.rows.logs(accountId, from, last, PAGE, plan.receipts?.last ?? 0n);
        if (rows.length === 0) break;
        from = BigInt(rows.at(-1)!.seq!);
        const stated = await this.checkpoints.list(accountId, 'logs', BigInt(rows[0].seq!), from);
        for await (const log of this.enrich(rows)) {
          Object.assign(end, { rows: end.rows + 1, firstSeq: end.firstSeq ?? log.seq, lastSeq: log.seq, lastHash: log.hash });
          yield log;
          for (const c of stated.filter((c) => c.seq === log.seq)) yield checkpoint(c, 'logs');
        }
      }
    }
    if (plan.receipts) {
      const { after, last, anchor } = plan.receipts;
      if (anchor) yield checkpoint(anchor, 'receipts');
      for (let from = after; from < last;) {
        const rows = await this.rows.receipts(accountId, from, last, PAGE);
        if (rows.length === 0) break;
        from = BigInt(rows.at(-1)!.seq);
        const stated = await this.checkpoints.list(accountId, 'receipts', BigInt(rows[0].seq), from);
        for (const row of rows) {
          Object.assign(end, {
            receipts: end.receipts + 1,
            firstReceiptSeq: end.firstReceiptSeq ?? row.seq,
            lastReceiptSeq: row.seq,
            lastReceiptHash: row.hash,
          });
          yield { type: 'receipt', seq: row.seq, prevHash: row.prev_hash, hash: row.hash, receipt: uploadReceipt(row) };
          for (const c of stated.filter((c) => c.receiptSeq === row.seq)) yield checkpoint(c, 'receipts');
        }
      }
    }
    end.generatedAt = new Date().toISOString();
    const signing = this.signer.privateKey();
    if (signing) {
      end.keyId = key!.keyId;
      end.signature = signRecord(signing, end);
    }
    yield end;
  }

  /**
   * The stretches to export. Logs: from the window's first log (or seq 1 from the genesis hash, or the latest checkpoint
   * signed at or before `from`) to its last, up to the head read now. Receipts: from seq 1 when the logs start there,
   * from that checkpoint's receipt seq when they start after it, or else from the first receipt of those logs; up to
   * the receipt head read together with the log head.
   */
  private async plan(window: ExportWindow): Promise<ExportPlan> {
    const { accountId } = window;
    const heads = await this.rows.heads(accountId);
    const span = await this.rows.window(accountId, window.from, window.to, BigInt(heads.logs.seq));
    if (!span) return {};
    const anchor = span.first > 1n ? await this.checkpoints.anchorFor(accountId, window.from, span.first) : undefined;
    const after = anchor ? BigInt(anchor.seq) : span.first - 1n;
    const receiptHead = BigInt(heads.receipts.seq);
    let receiptsAfter: bigint | null;
    if (after === 0n || (anchor && anchor.receiptSeq === undefined)) receiptsAfter = 0n;
    else if (anchor) receiptsAfter = BigInt(anchor.receiptSeq!);
    else receiptsAfter = ((await this.rows.firstReceiptOf(accountId, after, span.last)) ?? receiptHead + 1n) - 1n;
    return {
      logs: { after, last: span.last, anchor },
      receipts: { after: receiptsAfter, last: receiptHead, anchor: anchor?.receiptSeq !== undefined && receiptsAfter > 0n ? anchor : undefined },
    };
  }

  /** The page's log lines, each made as it is read (its parsed input and output are not held for the whole page). */
  private async *enrich(rows: LogRow[]): AsyncGenerator<ExportedLog> {
    if (rows.length === 0) return;
    const orderIds = [...new Set(rows.map((r) => r.order_id).filter((id): id is string => id !== null))];
    const orders = await this.evidence.ordersWithFills(rows[0].account_id, orderIds);
    for (const r of rows) {
      yield {
        type: 'log',
        seq: r.seq,
        prevHash: r.prev_hash,
        hash: r.hash,
        log: acceptedLog(r),
        upload: uploadSummary(
          r.receipt_seq === null
            ? undefined
            : { seq: r.receipt_seq, status: r.receipt_status!, finishedAt: r.receipt_at!.toISOString(), exchangeCode: r.receipt_code },
        ),
        orders: r.order_id === null || !orders.has(r.order_id) ? [] : [orders.get(r.order_id)!],
      };
    }
  }
}
