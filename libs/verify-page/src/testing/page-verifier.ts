import { webcrypto } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { type ProofReport, verifyProofFile } from '#libs/audit-chain';
import { VERIFY_SCRIPT } from '../verify-script.js';

export interface PagePolicy {
  key: string;
  witnesses?: string[];
  minCosignatures?: number;
  origin?: string;
}

export type PageReport =
  | {
      ok: true;
      origin: string;
      size: string;
      index: string;
      seq: string;
      entry: string;
      fields: Array<{ key: string; value: string }>;
      cosignatures: Array<{ name: string; keyId: string; timestamp: string }>;
      extensions: string[];
      unchecked: string[];
    }
  | { ok: false; reason: string };

export interface PageVerifier {
  verifyProof(bytes: Uint8Array, policy: PagePolicy): Promise<PageReport>;
  layOut(text: string): string;
}

/** The page's script, byte for byte, run in a realm of its own with what a browser gives it: WebCrypto and TextDecoder. */
export function loadPageVerifier(): PageVerifier {
  const context: Record<string, unknown> = { crypto: webcrypto, TextDecoder, TextEncoder };
  runInNewContext(VERIFY_SCRIPT, context, { filename: 'verify-page.js' });
  return context.tlogProofVerifier as PageVerifier;
}

/** What both verifiers answer, in one shape (plain strings, this realm's objects) so that they can be compared whole. */
export type Verdict =
  | {
      ok: true;
      origin: string;
      size: string;
      index: string;
      entry: string;
      cosignatures: Array<{ name: string; keyId: string; timestamp: string }>;
      extensions: string[];
    }
  | { ok: false; reason: string };

export function pageVerdict(report: PageReport): Verdict {
  if (!report.ok) return { ok: false, reason: report.reason };
  const { origin, size, index, entry, cosignatures, extensions } = report;
  return JSON.parse(JSON.stringify({ ok: true, origin, size, index, entry, cosignatures, extensions })) as Verdict;
}

/** verifyProofFile's verdict; a throw (it throws on what it did not foresee) becomes a refusal that says so. */
export function referenceVerdict(file: Uint8Array, policy: PagePolicy): Verdict & { threw?: boolean } {
  let report: ProofReport;
  try {
    report = verifyProofFile(file, policy);
  } catch (error) {
    return { ok: false, reason: `threw: ${(error as Error).message}`, threw: true };
  }
  if (!report.ok) return report;
  return {
    ok: true,
    origin: report.origin,
    size: String(report.size),
    index: String(report.index),
    entry: report.entry,
    cosignatures: report.cosignatures.map((c) => ({ name: c.name, keyId: c.keyId.toString(16).padStart(8, '0'), timestamp: String(c.timestamp) })),
    extensions: report.extensions,
  };
}
