import { createHash } from 'node:crypto';
import { type UploadSummary, uploadSummary } from './export-format.js';
import type { UploadReceipt } from './receipt.js';

/**
 * What each log line of an export says of its upload, checked against the receipt chain that follows the logs: the
 * receipt a line names must be the last one for its log, and agree with the line's status, time and exchange code.
 * Holds 24 bytes per log (typed arrays indexed by seq from the export's first log), about 24 MB for a million logs.
 */
export class UploadClaims {
  private base?: bigint;
  private size = 0;
  /** The receipt seq each line names (0: none); negated once that receipt was read. */
  private named = new BigInt64Array(1024);
  private digests = new BigUint64Array(1024);
  private logHashes = new BigUint64Array(1024);

  /** A log line, in seq order. */
  claim(logSeq: bigint, logHash: string, upload: UploadSummary): void {
    this.base ??= logSeq;
    const i = Number(logSeq - this.base);
    if (i >= this.named.length) this.grow();
    this.named[i] = upload.receiptSeq === null ? 0n : BigInt(upload.receiptSeq);
    this.digests[i] = digest(upload);
    this.logHashes[i] = prefix(logHash);
    this.size = i + 1;
  }

  /** A receipt of the chain, in seq order; the rule it breaks, or undefined. */
  observe(receipt: UploadReceipt): string | undefined {
    if (receipt.logSeq === null || this.base === undefined) return undefined;
    const i = Number(BigInt(receipt.logSeq) - this.base);
    if (i < 0 || i >= this.size) return undefined;
    if (!/^[0-9a-f]{64}$/.test(receipt.logHash ?? '') || prefix(receipt.logHash!) !== this.logHashes[i]) {
      return `receipt ${receipt.seq} names log seq ${receipt.logSeq} with a hash that is not that log's`;
    }
    const seq = BigInt(receipt.seq);
    const named = this.named[i];
    const last = named < 0n ? -named : named;
    if (named === 0n) return `the line of log seq ${receipt.logSeq} names no receipt, but receipt ${seq} is for it`;
    if (seq > last) return `the line of log seq ${receipt.logSeq} names receipt ${last} as its last, but receipt ${seq} is for it too`;
    if (seq < last) return undefined;
    if (digest(uploadSummary(receipt)) !== this.digests[i]) return `the upload status on the line of log seq ${receipt.logSeq} differs from its receipt ${seq}`;
    this.named[i] = -named;
    return undefined;
  }

  /** After the last receipt: a line that names a receipt the export did not hold. */
  finish(): string | undefined {
    for (let i = 0; i < this.size; i++) {
      if (this.named[i] > 0n) return `the line of log seq ${this.base! + BigInt(i)} names receipt ${this.named[i]}, which the export does not hold`;
    }
    return undefined;
  }

  private grow(): void {
    const bigger = <T extends BigInt64Array | BigUint64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a as never);
      return b;
    };
    this.named = bigger(this.named);
    this.digests = bigger(this.digests);
    this.logHashes = bigger(this.logHashes);
  }
}

function digest(upload: UploadSummary): bigint {
  const text = JSON.stringify([upload.receiptSeq, upload.status, upload.at, upload.exchangeCode || null]);
  return createHash('sha256').update(text).digest().readBigUInt64BE(0);
}

/** The first 64 bits of a hex hash. */
function prefix(hash: string): bigint {
  return BigInt(`0x${hash.slice(0, 16)}`);
}
