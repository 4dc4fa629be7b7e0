/**
 * An upload receipt as recorded: one upload attempt of one log and the exchange's answer, exactly what its link in the
 * account's receipt chain covers. `seq` is its position in that chain; `logSeq` and `logHash` bind it to the log's link
 * in the log chain (null for a log accepted before the chain); `status` is the status the attempt left the log in.
 */
export interface UploadReceipt {
  accountId: string;
  seq: string;
  logId: string;
  logSeq: string | null;
  logHash: string | null;
  /** `simulator` or `exchange`. */
  target: string;
  url: string;
  /** ISO-8601 with milliseconds. */
  startedAt: string;
  finishedAt: string;
  /** `uploaded`, `retryable`, `permanent` or `uncertain`. */
  outcome: string;
  httpStatus: number | null;
  exchangeCode: string | null;
  exchangeMessage: string | null;
  /** `uploaded`, `retrying`, `failed`, or `uploading` (a lapsed claim taken over: the attempt's outcome is unknown). */
  status: string;
}

/** The receipt's fields that only the database knows when it records an attempt: its account, its log's link, its seq. */
export type ReceiptLinkFields = 'accountId' | 'logSeq' | 'logHash' | 'seq';

/**
 * The canonical JSON of a receipt (`seq` and `logSeq` as JSON integers) as five pieces of text around the fields the
 * statement that records the attempt fills in: accountId (a JSON string), logHash (a JSON string or null), logSeq
 * and seq, in that order. The fields are written in their sorted order.
 */
export function canonicalReceiptPieces(receipt: Omit<UploadReceipt, ReceiptLinkFields>): [string, string, string, string, string] {
  const q = JSON.stringify;
  const r = receipt;
  return [
    '{"accountId":',
    `,"exchangeCode":${q(r.exchangeCode)},"exchangeMessage":${q(r.exchangeMessage)},"finishedAt":${q(r.finishedAt)},"httpStatus":${String(r.httpStatus)},"logHash":`,
    `,"logId":${q(r.logId)},"logSeq":`,
    `,"outcome":${q(r.outcome)},"seq":`,
    `,"startedAt":${q(r.startedAt)},"status":${q(r.status)},"target":${q(r.target)},"url":${q(r.url)}}`,
  ];
}

/** The canonical JSON of a receipt, the text its chain hash covers. */
export function canonicalReceipt(receipt: UploadReceipt): string {
  const [accountId, logHash, logSeq, seq, end] = canonicalReceiptPieces(receipt);
  const r = receipt;
  return `${accountId}${JSON.stringify(r.accountId)}${logHash}${JSON.stringify(r.logHash)}${logSeq}${r.logSeq === null ? 'null' : BigInt(r.logSeq)}${seq}${BigInt(r.seq)}${end}`;
}

/**
 * Whether a log's stored status agrees with the status its last receipt recorded. Only `uploaded` and `failed` are
 * bound: `uploaded` comes with an uploaded receipt and nothing leaves it, and `failed` comes with a failed receipt and
 * only an admin retry leaves it (to `queued`, without a receipt); a paused account's log goes back to `retrying` with
 * none. So: uploaded if and only if the last receipt says uploaded, and failed only if it says failed.
 */
export function statusAgrees(logStatus: string, lastReceiptStatus: string | null): boolean {
  if (logStatus === 'uploaded' || lastReceiptStatus === 'uploaded') return logStatus === lastReceiptStatus;
  return logStatus !== 'failed' || lastReceiptStatus === 'failed';
}

/**
 * Text PostgreSQL stores as it is: lone surrogates become U+FFFD (as the driver's UTF-8 encoding would make them) and so
 * does U+0000 (which a text column refuses), so that a receipt hashed before it is stored hashes the same read back.
 */
export function storableText(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8').replaceAll('\u0000', '\uFFFD');
}
