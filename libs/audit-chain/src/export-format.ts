import type { AcceptedLog } from './chain.js';
import type { CheckpointStatement } from './checkpoint-signing.js';
import type { UploadReceipt } from './receipt.js';

export const EXPORT_FORMAT = 'weex-ai-log-gateway/audit-export';
/** 2: receipts, anchors and a signed end line. */
export const EXPORT_VERSION = 2;

/** The first line. */
export interface ExportHeader {
  type: 'header';
  format: typeof EXPORT_FORMAT;
  version: number;
  accountId: string;
  from: string;
  to: string;
  generatedAt: string;
  hash: string;
  publicKey: string | null;
  keyId: string | null;
}

/** What a log line says of the log's upload: its last receipt in the export (all null when it has none). */
export interface UploadSummary {
  receiptSeq: string | null;
  status: string | null;
  /** When that attempt finished. */
  at: string | null;
  exchangeCode: string | null;
}

/** One log: the log as accepted (what its hash covers), its chain link, its upload so far, its orders and fills. */
export interface ExportedLog {
  type: 'log';
  seq: string | null;
  prevHash: string | null;
  hash: string | null;
  log: AcceptedLog;
  upload: UploadSummary;
  orders: Array<{ order: unknown; fills: unknown[] }>;
}

/** One upload attempt: the receipt as recorded (what its hash covers) and its link in the receipt chain. */
export interface ExportedReceipt {
  type: 'receipt';
  seq: string;
  prevHash: string;
  hash: string;
  receipt: UploadReceipt;
}

/**
 * A signed checkpoint, placed in the section of the chain it is checked against (`chain`, not signed): after the link
 * it states, or before the section's first link, which it then anchors.
 */
export interface ExportedCheckpoint extends CheckpointStatement {
  type: 'checkpoint';
  chain: 'logs' | 'receipts';
  signature: string;
  keyId: string;
}

/** The last line: what the export holds, signed when the gateway has a signing key, so that a cut is evident. */
export interface ExportEnd {
  type: 'end';
  accountId: string;
  from: string;
  to: string;
  generatedAt: string;
  /** Log lines. */
  rows: number;
  firstSeq: string | null;
  lastSeq: string | null;
  lastHash: string | null;
  receipts: number;
  firstReceiptSeq: string | null;
  lastReceiptSeq: string | null;
  lastReceiptHash: string | null;
  checkpoints: number;
  keyId?: string;
  signature?: string;
}

export type ExportLine = ExportHeader | ExportedLog | ExportedReceipt | ExportedCheckpoint | ExportEnd;

/** A log line's upload summary from its last receipt. */
export function uploadSummary(receipt: Pick<UploadReceipt, 'seq' | 'status' | 'finishedAt' | 'exchangeCode'> | undefined): UploadSummary {
  if (!receipt) return { receiptSeq: null, status: null, at: null, exchangeCode: null };
  return { receiptSeq: receipt.seq, status: receipt.status, at: receipt.finishedAt, exchangeCode: receipt.exchangeCode };
}
