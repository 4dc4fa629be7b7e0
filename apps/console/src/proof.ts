import { type ProofReport, tlogProofVerifier } from 'tlog-verifier';
import { asApiError, type Client } from './api';
import type { WitnessKey } from './types';

export type VerifiedReport = Extract<ProofReport, { ok: true }>;

/** One witness's cosignature on the proof's checkpoint: verified by its key, absent, or present and not verifying. */
export type WitnessCheck = { witness: string } & ({ result: 'ok'; at: string } | { result: 'missing' } | { result: 'bad'; reason: string });

/** The key the checkpoint was checked against: one the judge pinned (got out of band), or only the one the gateway served. */
export type KeySource = { pinned: true; label: string } | { pinned: false; label: string };

/** The signatures' verdict, before the page's fields are compared with the entry (see proof-fields.ts). */
export type Checked =
  | { kind: 'checking' }
  | { kind: 'verified'; report: VerifiedReport; key: KeySource; witnesses: WitnessCheck[]; unchecked: string[] }
  | { kind: 'refused'; reason: string; key?: KeySource; witnesses?: WitnessCheck[] }
  | { kind: 'not-ready'; retryAfter: number; message: string }
  | { kind: 'unavailable'; message: string };

/** `<name>+<hex key id>`, how keys are named in signature lines and in the verdict. */
export const keyLabel = (vkey: string): string => vkey.split('+').slice(0, 2).join('+');

/** Browsers give WebCrypto to secure contexts only: https, or localhost. */
const NO_WEBCRYPTO = 'this browser gives this page no WebCrypto, which it does only over https:// or on localhost; open the console over HTTPS';

/**
 * Fetches the log's proof, the gateway's verifier key and the witnesses' keys, and checks here, with WebCrypto: the
 * checkpoint's signature by the pinned key (or, with none pinned, the served one) for this account's tree, each
 * witness's cosignature, and the entry's inclusion. A served key other than the pinned one is refused outright.
 */
export async function checkProof(api: Client, id: string, pinned: string | undefined): Promise<{ checked: Checked; proof?: Uint8Array<ArrayBuffer> }> {
  if (typeof crypto !== 'object' || !crypto.subtle) return { checked: { kind: 'refused', reason: NO_WEBCRYPTO } };
  let proof: Uint8Array<ArrayBuffer>;
  let served: string;
  let listed: WitnessKey[];
  try {
    const answers = await Promise.all([
      api.bytes(`/v1/ai-logs/${encodeURIComponent(id)}/proof`),
      api.text('/v1/audit/verifier-key'),
      api.json<{ data: WitnessKey[] }>('/v1/audit/witnesses'),
    ]);
    [proof, served, { data: listed }] = [answers[0], answers[1].trim(), answers[2]];
  } catch (failure) {
    const error = asApiError(failure);
    if (error.status === 409 && error.code === 'PROOF_NOT_READY')
      return { checked: { kind: 'not-ready', retryAfter: error.retryAfter ?? 5, message: error.message } };
    return { checked: { kind: 'unavailable', message: error.message } };
  }
  if (pinned !== undefined && pinned !== served) {
    const [shown, yours] = keyLabel(served) === keyLabel(pinned) ? [served, pinned] : [keyLabel(served), keyLabel(pinned)];
    const reason = `the gateway serves the verifier key ${shown}, not the one you pinned (${yours}): its checkpoints are not signed by the key you trust`;
    return { checked: { kind: 'refused', reason, key: { pinned: true, label: keyLabel(pinned) } }, proof };
  }
  const vkey = pinned ?? served;
  const key: KeySource = { pinned: pinned !== undefined, label: keyLabel(vkey) };
  // The origin comes from the key's name (AUDIT_ORIGIN): a proof of another gateway's or another account's tree fails.
  const policy = { key: vkey, origin: `${vkey.split('+')[0]}/${api.account}` };
  const base = await verify(proof, policy);
  if (!base.ok) return { checked: { kind: 'refused', reason: base.reason, key }, proof };
  const witnesses = await Promise.all(listed.map((w) => checkWitness(proof, policy, w)));
  // Signature lines that no key known here checked: neither the gateway's nor a listed witness's.
  const unchecked = base.unchecked.filter((label) => !listed.some((w) => w.witness === label));
  const bad = witnesses.find((w) => w.result === 'bad');
  if (bad?.result === 'bad')
    return { checked: { kind: 'refused', reason: `the cosignature of witness ${bad.witness} does not verify: ${bad.reason}`, key, witnesses }, proof };
  return { checked: { kind: 'verified', report: base, key, witnesses, unchecked }, proof };
}

/** The proof checked again with one witness's key, none required: its line verifies, is absent, or fails. */
async function checkWitness(proof: Uint8Array, policy: { key: string; origin: string }, w: WitnessKey): Promise<WitnessCheck> {
  const report = await verify(proof, { ...policy, witnesses: [w.verifierKey], minCosignatures: 0 });
  if (!report.ok) return { witness: w.witness, result: 'bad', reason: report.reason };
  const cosigned = report.cosignatures[0];
  return cosigned ? { witness: w.witness, result: 'ok', at: instant(cosigned.timestamp) } : { witness: w.witness, result: 'missing' };
}

async function verify(proof: Uint8Array, policy: Parameters<typeof tlogProofVerifier.verifyProof>[1]): Promise<ProofReport> {
  try {
    return await tlogProofVerifier.verifyProof(proof, policy);
  } catch (failure) {
    return { ok: false, reason: `the proof could not be checked: ${failure instanceof Error ? failure.message : String(failure)}` };
  }
}

/** A cosignature's time (seconds since 1970, a uint64 as text) as UTC, or as the seconds beyond a Date's range. */
function instant(seconds: string): string {
  const ms = Number(seconds) * 1000;
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : `${seconds} s after 1970`;
}
