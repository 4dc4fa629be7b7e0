import { type ProofReport, tlogProofVerifier } from 'tlog-verifier';
import { asApiError, type Client } from './api';
import type { LogDetail } from './types';

export type Verdict =
  | { kind: 'checking' }
  | { kind: 'verified'; report: Extract<ProofReport, { ok: true }>; keyName: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'not-ready'; retryAfter: number; message: string }
  | { kind: 'unavailable'; message: string };

/** Browsers give WebCrypto to secure contexts only: https, or localhost. */
const NO_WEBCRYPTO = 'this browser gives this page no WebCrypto, which it does only over https:// or on localhost; open the console over HTTPS';

/**
 * Fetches the log's proof and the gateway's verifier key, and checks the proof here, with WebCrypto: the checkpoint's
 * signature by that key, for this account's tree; the entry's inclusion in it; and that the entry is this very log.
 */
export async function checkProof(api: Client, log: LogDetail): Promise<{ verdict: Verdict; proof?: Uint8Array<ArrayBuffer> }> {
  if (typeof crypto !== 'object' || !crypto.subtle) return { verdict: { kind: 'refused', reason: NO_WEBCRYPTO } };
  let proof: Uint8Array<ArrayBuffer>;
  let key: string;
  try {
    [proof, key] = await Promise.all([api.bytes(`/v1/ai-logs/${encodeURIComponent(log.id)}/proof`), api.text('/v1/audit/verifier-key')]);
  } catch (failure) {
    const error = asApiError(failure);
    if (error.status === 409 && error.code === 'PROOF_NOT_READY')
      return { verdict: { kind: 'not-ready', retryAfter: error.retryAfter ?? 5, message: error.message } };
    return { verdict: { kind: 'unavailable', message: error.message } };
  }
  key = key.trim();
  const keyName = key.split('+')[0];
  let report: ProofReport;
  try {
    report = await tlogProofVerifier.verifyProof(proof, { key, origin: `${keyName}/${api.account}` });
  } catch (failure) {
    report = { ok: false, reason: `the proof could not be checked: ${failure instanceof Error ? failure.message : String(failure)}` };
  }
  if (!report.ok) return { verdict: { kind: 'refused', reason: report.reason }, proof };
  const field = (name: string) => report.fields.find((f) => f.key === name)?.value;
  if (field('id') !== log.id) return { verdict: { kind: 'refused', reason: `the proof holds another log (${field('id')}), not this one` }, proof };
  if (log.chain && report.seq !== log.chain.seq) {
    return { verdict: { kind: 'refused', reason: `the proof puts this log at seq ${report.seq}, its chain link at seq ${log.chain.seq}` }, proof };
  }
  return { verdict: { kind: 'verified', report, keyName }, proof };
}
