import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { parseJson, stringifyJson } from '#libs/common';
import { PrismaService } from '#libs/database';
import { type AcceptedLog, canonicalLog } from '#libs/audit-chain';
import { AuditCheckpoints } from './audit-checkpoints.service.js';
import { AuditSigner } from './audit-signer.js';

export const EXPORT_FORMAT = 'weex-ai-log-gateway/audit-export';
const PAGE = 500;

export interface ExportWindow {
  accountId: string;
  /** Logs received at or after. */
  from: Date;
  /** Logs received before. */
  to: Date;
}

interface LogRow {
  id: string;
  account_id: string;
  agent_key_id: string;
  seq: string | null;
  prev_hash: string | null;
  hash: string | null;
  received_at: Date;
  order_id: string | null;
  stage: string;
  model: string;
  input: string;
  output: string;
  explanation: string;
  status: string;
  uploaded_at: Date | null;
}

/** One exported log: the log as accepted (what its hash covers), its chain links, its upload receipt, its orders. */
export interface ExportedLog {
  type: 'log';
  seq: string | null;
  prevHash: string | null;
  hash: string | null;
  log: AcceptedLog;
  upload: { status: string; uploadedAt: string | null; receipt: Record<string, unknown> | null };
  orders: Array<{ order: unknown; fills: unknown[] }>;
}

/**
 * Streams an account's logs in chain order, page by page (never the whole window in memory): a header line, one line
 * per log, a signed checkpoint line after the log it states, and an end line with the count (so that a truncated
 * file is detected). Logs accepted before the chain existed are exported with null links, and verify reports them.
 */
@Injectable()
export class AuditExport {
  constructor(
    private readonly prisma: PrismaService,
    private readonly checkpoints: AuditCheckpoints,
    private readonly signer: AuditSigner,
  ) {}

  jsonl(window: ExportWindow): Readable {
    return Readable.from(this.lines(window));
  }

  csv(window: ExportWindow): Readable {
    return Readable.from(this.csvLines(window));
  }

  async *lines(window: ExportWindow): AsyncGenerator<string> {
    const key = this.signer.publicKey();
    yield `${stringifyJson({
      type: 'header',
      format: EXPORT_FORMAT,
      version: 1,
      accountId: window.accountId,
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      generatedAt: new Date().toISOString(),
      hash: 'SHA-256(prevHash || canonical JSON of log), hex; see docs/audit.md',
      publicKey: key?.pem ?? null,
      keyId: key?.keyId ?? null,
    })}\n`;
    let rows = 0;
    let last: ExportedLog | undefined;
    for await (const page of this.pages(window)) {
      const seqs = page.filter((e) => e.seq !== null).map((e) => BigInt(e.seq!));
      const checkpoints = seqs.length ? await this.checkpoints.list(window.accountId, seqs[0], seqs.at(-1)) : [];
      const bySeq = new Map(checkpoints.map((c) => [c.seq, c]));
      for (const entry of page) {
        rows++;
        last = entry;
        yield `${stringifyJson(entry)}\n`;
        const checkpoint = entry.seq === null ? undefined : bySeq.get(entry.seq);
        if (checkpoint) yield `${stringifyJson({ type: 'checkpoint', ...checkpoint })}\n`;
      }
    }
    yield `${stringifyJson({ type: 'end', rows, lastSeq: last?.seq ?? null, lastHash: last?.hash ?? null })}\n`;
  }

  /** One row per log for spreadsheets; `log_canonical` is what the hash covers, so verify can check a CSV too. */
  async *csvLines(window: ExportWindow): AsyncGenerator<string> {
    yield 'seq,prev_hash,hash,received_at,id,order_id,stage,model,upload_status,uploaded_at,exchange_code,orders,fills,log_canonical\n';
    for await (const page of this.pages(window)) {
      for (const e of page) {
        const fills = e.orders.reduce((n, o) => n + o.fills.length, 0);
        const cells = [e.seq, e.prevHash, e.hash, e.log.receivedAt, e.log.id, e.log.orderId, e.log.stage, e.log.model, e.upload.status, e.upload.uploadedAt,
          (e.upload.receipt?.exchangeCode as string | undefined) ?? null, e.orders.length, fills, canonicalLog(e.log)];
        yield `${cells.map(csvCell).join(',')}\n`;
      }
    }
  }

  private async *pages(window: ExportWindow): AsyncGenerator<ExportedLog[]> {
    // Keyset paging in chain order; logs from before the chain (seq null) come first, by id.
    let after: { seq: string | null; id: string } = { seq: null, id: '00000000-0000-0000-0000-000000000000' };
    for (;;) {
      const rows = await this.prisma.$queryRaw<LogRow[]>`
        SELECT id::text, account_id, agent_key_id, seq::text AS seq, prev_hash, hash, received_at, order_id::text AS order_id,
               stage, model, input, output, explanation, status::text AS status, uploaded_at
        FROM ai_logs
        WHERE account_id = ${window.accountId} AND received_at >= ${window.from} AND received_at < ${window.to}
          AND (CASE WHEN ${after.seq}::bigint IS NULL
                    THEN (seq IS NULL AND id > ${after.id}::uuid) OR seq IS NOT NULL
                    ELSE seq > ${after.seq}::bigint END)
        ORDER BY ai_logs.seq NULLS FIRST, ai_logs.id
        LIMIT ${PAGE}`;
      if (rows.length === 0) return;
      yield await this.enrich(rows);
      const tail = rows.at(-1)!;
      after = { seq: tail.seq, id: tail.id };
      if (rows.length < PAGE) return;
    }
  }

  private async enrich(rows: LogRow[]): Promise<ExportedLog[]> {
    const ids = rows.map((r) => r.id);
    const receipts = await this.prisma.$queryRaw<Array<{ log_id: string; started_at: Date; target: string; http_status: number | null; exchange_code: string | null; exchange_message: string | null }>>`
      SELECT DISTINCT ON (log_id) log_id::text, started_at, target, http_status, exchange_code, exchange_message
      FROM upload_attempts WHERE log_id = ANY(${ids}::uuid[]) AND outcome = 'uploaded' ORDER BY log_id, started_at`;
    const receiptOf = new Map(receipts.map((r) => [r.log_id, r]));
    const orderIds = [...new Set(rows.map((r) => r.order_id).filter((id): id is string => id !== null))];
    const accountId = rows[0].account_id;
    const orders = orderIds.length
      ? await this.prisma.$queryRaw<Array<{ order_id: string; data: string }>>`
          SELECT order_id::text, data FROM exchange_orders WHERE account_id = ${accountId} AND order_id = ANY(${orderIds}::bigint[])`
      : [];
    const fills = orderIds.length
      ? await this.prisma.$queryRaw<Array<{ order_id: string; data: string }>>`
          SELECT order_id::text, data FROM exchange_trades WHERE account_id = ${accountId} AND order_id = ANY(${orderIds}::bigint[]) ORDER BY time`
      : [];
    return rows.map((r) => {
      const receipt = receiptOf.get(r.id);
      const order = r.order_id === null ? undefined : orders.find((o) => o.order_id === r.order_id);
      return {
        type: 'log',
        seq: r.seq,
        prevHash: r.prev_hash,
        hash: r.hash,
        log: {
          accountId: r.account_id,
          seq: r.seq ?? '0',
          id: r.id,
          receivedAt: r.received_at.toISOString(),
          agentKeyId: r.agent_key_id,
          orderId: r.order_id,
          stage: r.stage,
          model: r.model,
          input: parseJson(r.input),
          output: parseJson(r.output),
          explanation: r.explanation,
        },
        upload: {
          status: r.status,
          uploadedAt: r.uploaded_at?.toISOString() ?? null,
          receipt: receipt
            ? { at: receipt.started_at.toISOString(), target: receipt.target, httpStatus: receipt.http_status, exchangeCode: receipt.exchange_code, exchangeMessage: receipt.exchange_message }
            : null,
        },
        orders: order ? [{ order: parseJson(order.data), fills: fills.filter((f) => f.order_id === r.order_id).map((f) => parseJson(f.data)) }] : [],
      };
    });
  }
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
