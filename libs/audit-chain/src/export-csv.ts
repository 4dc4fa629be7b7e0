import { canonicalLog } from './chain.js';
import type { ExportLine } from './export-format.js';
import { canonicalReceipt } from './receipt.js';

/**
 * The CSV form of an audit export: one row per line of the JSONL form, a `type` column saying which, and a `json` column
 * with the text the verifier reads (the canonical log or receipt the hash covers, or the checkpoint, header or end
 * line). The other columns are for people; the verifier checks each against the JSON.
 */
export const CSV_COLUMNS = [
  'type',
  'seq',
  'prev_hash',
  'hash',
  'received_at',
  'id',
  'order_id',
  'stage',
  'model',
  'upload_status',
  'upload_at',
  'exchange_code',
  'receipt_seq',
  'orders',
  'fills',
  'json',
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** A spreadsheet reads a cell that starts with one of these as a formula (OWASP, "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r']/;

/**
 * One cell, safe to open in a spreadsheet: quoted (RFC 4180), and, when it starts with a formula character, prefixed
 * with a single quote so that it is shown as text. A value that starts with a quote is prefixed too, so that
 * {@link readCsvCell} can always drop exactly one and get the value back.
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return `"${(FORMULA_START.test(text) ? `'${text}` : text).replaceAll('"', '""')}"`;
}

export function csvRow(cells: Partial<Record<CsvColumn, unknown>>): string {
  return `${CSV_COLUMNS.map((column) => csvCell(cells[column])).join(',')}\n`;
}

/** An export line as a CSV row. */
export function exportCsvRow(line: ExportLine): string {
  switch (line.type) {
    case 'log': {
      const { log, upload } = line;
      return csvRow({
        type: 'log',
        seq: line.seq,
        prev_hash: line.prevHash,
        hash: line.hash,
        received_at: log.receivedAt,
        id: log.id,
        order_id: log.orderId,
        stage: log.stage,
        model: log.model,
        upload_status: upload.status,
        upload_at: upload.at,
        exchange_code: upload.exchangeCode,
        receipt_seq: upload.receiptSeq,
        orders: line.orders.length,
        fills: line.orders.reduce((n, o) => n + o.fills.length, 0),
        json: canonicalLog(log),
      });
    }
    case 'receipt': {
      const { receipt } = line;
      return csvRow({
        type: 'receipt',
        seq: line.seq,
        prev_hash: line.prevHash,
        hash: line.hash,
        id: receipt.logId,
        upload_status: receipt.status,
        upload_at: receipt.finishedAt,
        exchange_code: receipt.exchangeCode,
        json: canonicalReceipt(receipt),
      });
    }
    case 'checkpoint':
      return csvRow({ type: 'checkpoint', seq: line.seq, hash: line.hash, receipt_seq: line.receiptSeq, json: JSON.stringify(line) });
    default:
      return csvRow({ type: line.type, json: JSON.stringify(line) });
  }
}

/** The value a cell of an export holds, its formula guard removed. */
export function readCsvCell(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell;
}

/** Whether a CSV record is complete: quotes balanced, so no quoted cell runs on to the next line. */
export function csvRecordComplete(text: string): boolean {
  let quotes = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) quotes++;
  return quotes % 2 === 0;
}

/** One RFC 4180 record (quoted cells may hold commas, quotes and line breaks); a CR ending the record is dropped. */
export function parseCsvRecord(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  const end = line.endsWith('\r') && csvRecordComplete(line) ? line.length - 1 : line.length;
  for (let i = 0; i < end; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}
