import { canonicalJson, chainHash } from '#libs/audit-chain';

/**
 * A model call as its link in the account's chain covers it: every field of the row but the bodies, which their
 * SHA-256s stand for (so that checking a link needs no megabytes), and the chain's own prevHash and hash. Instants
 * are ISO-8601 with milliseconds, `seq` the decimal position (written as a JSON integer).
 */
export interface ModelCallLink {
  accountId: string;
  seq: string;
  id: string;
  agentKeyId: string;
  method: string;
  path: string;
  upstreamUrl: string;
  requestedModel: string | null;
  answeredModel: string | null;
  responseId: string | null;
  httpStatus: number | null;
  outcome: string;
  error: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  startedAt: string;
  firstByteAt: string | null;
  finishedAt: string;
  requestSha256: string;
  responseSha256: string;
}

/** The canonical JSON of a call's link: the audit chain's canonical form (sorted keys, no whitespace). */
export function canonicalModelCall(call: ModelCallLink): string {
  return canonicalJson({ ...call, seq: BigInt(call.seq) });
}

/** SHA-256 of the previous call's hash followed by this call's canonical JSON, as the AI-log chain hashes its logs. */
export function modelCallHash(prevHash: string, call: ModelCallLink): string {
  return chainHash(prevHash, canonicalModelCall(call));
}
