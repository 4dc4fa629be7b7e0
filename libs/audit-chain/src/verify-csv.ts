import { parseJson } from '#libs/common';
import type { AcceptedLog } from './chain.js';
import { type CsvColumn, readCsvCell } from './export-csv.js';
import type { ExportedCheckpoint, ExportEnd, ExportHeader, UploadSummary } from './export-format.js';
import type { UploadReceipt } from './receipt.js';

/** One line of an export as the verifier reads it, from JSONL or CSV alike: for links, the exact text that was hashed. */
export type ExportInput =
  | { type: 'header'; header: ExportHeader }
  | { type: 'log'; seq: string | null; prevHash: string | null; hash: string | null; canonical: string; logSeq: string; upload: UploadSummary }
  | { type: 'receipt'; seq: string; prevHash: string; hash: string; canonical: string; receipt: UploadReceipt }
  | { type: 'checkpoint'; checkpoint: ExportedCheckpoint }
  | { type: 'end'; end: ExportEnd };

/**
 * Reads a CSV record of an export. Each cell's formula guard is removed first (see csvCell); the `json` cell is what
 * the hash covers, and every cell shown beside it must say what the JSON says, so that a cell edited in a spreadsheet
 * is caught. Answers the input, or the rule the record broke.
 */
export function readCsvRecord(cells: string[], columns: Map<string, number>): ExportInput | string {
  const at = (name: CsvColumn) => readCsvCell(cells[columns.get(name) ?? -1] ?? '');
  const nullable = (name: CsvColumn) => at(name) || null;
  const json = at('json');
  const type = at('type');
  const differs = (shown: Array<[CsvColumn, unknown]>) => {
    const column = shown.find(([name, value]) => at(name) !== (value === null || value === undefined ? '' : String(value)));
    return column && `the ${column[0]} cell differs from the ${type} it shows: the cell was changed`;
  };
  switch (type) {
    case 'header':
      return { type, header: parseJson(json) as ExportHeader };
    case 'end':
      return { type, end: parseJson(json) as ExportEnd };
    case 'checkpoint': {
      const checkpoint = parseJson(json) as ExportedCheckpoint;
      return (
        differs([
          ['seq', checkpoint.seq],
          ['hash', checkpoint.hash],
          ['receipt_seq', checkpoint.receiptSeq],
        ]) ?? { type, checkpoint }
      );
    }
    case 'log': {
      const log = parseJson(json) as AcceptedLog;
      const logSeq = String(log.seq);
      // A log outside the chain has no seq cell; the verifier reports it as such.
      const wrong = differs([
        ['seq', at('seq') && logSeq],
        ['received_at', log.receivedAt],
        ['id', log.id],
        ['order_id', log.orderId],
        ['stage', log.stage],
        ['model', log.model],
      ]);
      const upload = {
        receiptSeq: nullable('receipt_seq'),
        status: nullable('upload_status'),
        at: nullable('upload_at'),
        exchangeCode: nullable('exchange_code'),
      };
      return wrong ?? { type, seq: nullable('seq'), prevHash: nullable('prev_hash'), hash: nullable('hash'), canonical: json, logSeq, upload };
    }
    case 'receipt': {
      const receipt = parseJson(json) as UploadReceipt;
      receipt.seq = String(receipt.seq);
      receipt.logSeq = receipt.logSeq === null ? null : String(receipt.logSeq);
      const wrong = differs([
        ['id', receipt.logId],
        ['upload_status', receipt.status],
        ['upload_at', receipt.finishedAt],
        ['exchange_code', receipt.exchangeCode],
      ]);
      return wrong ?? { type, seq: at('seq'), prevHash: at('prev_hash'), hash: at('hash'), canonical: json, receipt };
    }
    default:
      return `unknown row type ${type}`;
  }
}
